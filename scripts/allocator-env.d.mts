export declare const ALLOCATOR_ENV: Readonly<Record<string, string>>;
export declare function hasAllocatorEnv(): boolean;
