// Latency and throughput figures for benchmarks: percentiles over recorded samples.
export interface Figures {
  requests: number;
  errors: number;
  seconds: number;
  per_second: number;
  p50_ms: number;
  p99_ms: number;
  mean_ms: number;
}

export function figures(samplesMs: number[], errors: number, seconds: number): Figures {
  const sorted = [...samplesMs].sort((a, b) => a - b);
  const pick = (q: number): number => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! : NaN);
  const round = (n: number): number => Math.round(n * 1000) / 1000;
  return {
    requests: sorted.length,
    errors,
    seconds: round(seconds),
    per_second: round(sorted.length / seconds),
    p50_ms: round(pick(0.5)),
    p99_ms: round(pick(0.99)),
    mean_ms: round(sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length)),
  };
}

/** Runs `concurrency` loops of `once` for `seconds`, after a warm-up, recording each latency. */
export async function closedLoop(once: () => Promise<boolean>, options: { concurrency: number; seconds: number; warmupSeconds: number }): Promise<Figures> {
  const drive = async (seconds: number, record: boolean): Promise<{ samples: number[]; errors: number; elapsed: number }> => {
    const samples: number[] = [];
    let errors = 0;
    const start = performance.now();
    const end = start + seconds * 1000;
    await Promise.all(
      Array.from({ length: options.concurrency }, async () => {
        while (performance.now() < end) {
          const t = performance.now();
          const ok = await once().catch(() => false);
          if (!record) continue;
          if (ok) samples.push(performance.now() - t);
          else errors++;
        }
      }),
    );
    return { samples, errors, elapsed: (performance.now() - start) / 1000 };
  };
  await drive(options.warmupSeconds, false);
  const { samples, errors, elapsed } = await drive(options.seconds, true);
  return figures(samples, errors, elapsed);
}
