// The allocator setting browser mode runs with (scripts/start.mjs), and bench:evening measures with.
// glibc's malloc serves a freed large block's size from its heaps from then on (its mmap threshold
// rises to it, up to 32 MB), so a camera's 300 kB frames, received and freed 30 times a second on
// several threads, end up in heaps that never shrink: an evening's resident memory kept growing
// (bench:evening, 30 minutes compressed: 86.7 MB growth, 740 MB resident). A fixed threshold of
// 128 kB maps every frame on its own and gives it back when freed (41.5 MB, 590 MB). Other
// platforms' allocators ignore the variable.
export const ALLOCATOR_ENV = { MALLOC_MMAP_THRESHOLD_: '131072' };

/** True when this process already runs with it (glibc reads it once, at start). */
export const hasAllocatorEnv = () => Object.entries(ALLOCATOR_ENV).every(([k, v]) => process.env[k] === v);
