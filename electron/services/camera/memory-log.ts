/**
 * Where a long session's memory goes, thread by thread (`COMPANION_MEMORY_LOG=S`: every S seconds a
 * line on stderr). The resident size is the process's, all threads together; each thread can say only
 * its own V8 heap, the buffers outside it, and what else it knows (OpenCV's WebAssembly memory), so the
 * rest is native (the model's runtime, image decoding, the allocator). bench:evening reads these lines.
 */
import { threadId } from 'node:worker_threads';

const mb = (b: number) => (b / 1048576).toFixed(1);

export function logMemory(thread: string, extra: () => Record<string, number> = () => ({})): void {
  const every = Number(process.env.COMPANION_MEMORY_LOG);
  if (!(every > 0)) return;
  setInterval(() => {
    const m = process.memoryUsage();
    const more = Object.entries(extra()).map(([k, v]) => `, ${k} ${mb(v)}`).join('');
    process.stderr.write(`memory ${thread} (thread ${threadId}): rss ${mb(m.rss)}, heap ${mb(m.heapUsed)}/${mb(m.heapTotal)}, external ${mb(m.external)}, array buffers ${mb(m.arrayBuffers)}${more} MB\n`);
  }, every * 1000).unref();
}
