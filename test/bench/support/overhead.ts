// A path through the service measured against the direct path it wraps, in the same run: latency
// unloaded (concurrency 1), then throughput under load in alternating rounds, with the CPU each
// process spent. The report names the wrapped path by its own name (dispatch, mcp…).
import { availableParallelism } from 'node:os';
import { withCpu } from './cpu.js';
import type { Figures } from './stats.js';

/** One way of calling the upstream at a given concurrency, for one phase. */
export type Path = (concurrency: number) => Promise<Figures>;

export interface OverheadOptions {
  concurrency: number;
  rounds: number;
  seconds: number;
  engine: 'sqlite' | 'postgresql';
  pids: Parameters<typeof withCpu>[0];
  targets: Record<string, string>;
}

const round = (n: number): number => Math.round(n * 1000) / 1000;

export async function measureOverhead(benchmark: string, via: string, direct: Path, through: Path, options: OverheadOptions): Promise<Record<string, unknown> & { engine: string }> {
  const latency = { direct: await direct(1), [via]: await through(1) } as Record<'direct' | string, Figures>;
  const measured = (path: Path) => withCpu(options.pids, () => path(options.concurrency));
  type Measured = Awaited<ReturnType<typeof measured>>;
  const rounds: Array<{ direct: Measured; through: Measured }> = [];
  for (let r = 0; r < options.rounds; r++) rounds.push({ direct: await measured(direct), through: await measured(through) });
  /** The round with the median throughput of one path (its latencies and CPU come with it). */
  const median = (path: 'direct' | 'through') => rounds.map((r) => r[path]).sort((a, b) => a.per_second - b.per_second)[Math.floor(rounds.length / 2)]!;
  const load = { direct: median('direct'), through: median('through') };
  return {
    benchmark,
    engine: options.engine,
    seconds_per_phase: options.seconds,
    latency: {
      concurrency: 1,
      ...latency,
      p50_overhead_ms: round(latency[via]!.p50_ms - latency['direct']!.p50_ms),
      p99_overhead_ms: round(latency[via]!.p99_ms - latency['direct']!.p99_ms),
    },
    throughput: {
      concurrency: options.concurrency,
      direct: load.direct,
      [via]: load.through,
      ratio: round(load.through.per_second / load.direct.per_second),
      rounds: rounds.map((r) => ({ direct: round(r.direct.per_second), [via]: round(r.through.per_second), ratio: round(r.through.per_second / r.direct.per_second) })),
    },
    targets: options.targets,
    cpus: availableParallelism(),
    node: process.version,
    at: new Date().toISOString(),
  };
}
