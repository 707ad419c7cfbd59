// npm run bench:abort-signal — issue 32 item 3: is AbortSignal.any worth using on the newer lines?
// The MCP client (adapters/mcp/src/upstream/upstream-client.ts) combines each tool call's pausable timer with
// the caller's signal through one controller and a listener; AbortSignal.any would follow both
// signals itself. Each tested line (the machine's Node, and node22 and node24 from the lockfile)
// runs support/abort-signal-line.mjs in its own process, both ways in alternating rounds; the lines
// take turns, RUNS times. Reported per line: median ns per call each way and any/listener (above 1:
// AbortSignal.any costs more). Env: RUNS (3), ABORT_CALLS per round (100000), ABORT_ROUNDS (9).
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { PROJECT_ROOT } from '@switchyard/app';
import { writeReport } from './support/report.js';

const RUNS = Number(process.env['RUNS'] ?? 3);
const SCRIPT = join(PROJECT_ROOT, 'test', 'bench', 'support', 'abort-signal-line.mjs');
const LINES: Array<[string, string]> = [
  ['machine', process.execPath],
  ['node22', join(PROJECT_ROOT, 'node_modules', 'node22', 'bin', 'node')],
  ['node24', join(PROJECT_ROOT, 'node_modules', 'node24', 'bin', 'node')],
];

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const runs = new Map<string, Array<{ node: string; listenerNs: number; anyNs: number }>>();
for (let run = 0; run < RUNS; run++) {
  for (const [name, node] of LINES) {
    const out = JSON.parse(execFileSync(node, [SCRIPT], { encoding: 'utf8', env: process.env })) as { node: string; listenerNs: number; anyNs: number };
    runs.set(name, [...(runs.get(name) ?? []), out]);
  }
}
const lines = [...runs].map(([name, results]) => {
  const listenerNs = median(results.map((r) => r.listenerNs));
  const anyNs = median(results.map((r) => r.anyNs));
  return { line: name, node: results[0]!.node, listenerNs, anyNs, anyOverListener: Number((anyNs / listenerNs).toFixed(2)), perRun: results.map((r) => Number((r.anyNs / r.listenerNs).toFixed(2))) };
});
writeReport('abort-signal', { engine: 'none', runs: RUNS, lines } as { engine: string });
