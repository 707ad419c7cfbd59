// Loaded into the service by bench:hostile (NODE_OPTIONS=--import): samples process.memoryUsage()
// every 100 ms and writes the series to BENCH_MEMORY_FILE when the service is told to stop, so the
// report can say what a peak of RSS was made of: the JS heap, or buffers outside it (bodies).
import { writeFileSync } from 'node:fs';

/** [time (ms since the epoch), rss, heapUsed, heapTotal, external, arrayBuffers] in bytes. */
export type MemorySample = [number, number, number, number, number, number];

const file = process.env['BENCH_MEMORY_FILE'];
if (file) {
  const samples: MemorySample[] = [];
  setInterval(() => {
    const m = process.memoryUsage();
    samples.push([Date.now(), m.rss, m.heapUsed, m.heapTotal, m.external, m.arrayBuffers]);
  }, 100).unref();
  process.prependListener('SIGTERM', () => writeFileSync(file, JSON.stringify(samples)));
}
