// One Node.js line's share of bench:abort-signal: the per-call cost of combining a tool call's own
// (pausable) timer with the caller's signal, the two ways the MCP client could do it, measured in
// alternating rounds in this process. Plain JavaScript, so every line runs it with no loader.
// Prints one JSON line: { node, listenerNs, anyNs } (median ns per call over the rounds).
import { performance } from 'node:perf_hooks';

const CALLS = Number(process.env.ABORT_CALLS ?? 100_000);
const ROUNDS = Number(process.env.ABORT_ROUNDS ?? 9);

// What upstream-client.ts does: one controller, a listener on the caller's signal, removed after.
function listener() {
  const caller = new AbortController(); // the caller's signal: one per request, never aborted here
  const stop = new AbortController();
  const withdraw = () => stop.abort();
  caller.signal.addEventListener('abort', withdraw, { once: true });
  const timer = setTimeout(() => stop.abort(), 10_000);
  const signal = stop.signal;
  clearTimeout(timer);
  caller.signal.removeEventListener('abort', withdraw);
  return signal;
}

// The same with AbortSignal.any: the timer still needs its own controller (it pauses while the
// upstream asks the caller a question), and any() follows both.
function any() {
  const caller = new AbortController();
  const clock = new AbortController();
  const signal = AbortSignal.any([caller.signal, clock.signal]);
  const timer = setTimeout(() => clock.abort(), 10_000);
  clearTimeout(timer);
  return signal;
}

let aborted = 0; // read at the end, so no call is optimised away
function round(fn) {
  const start = performance.now();
  for (let i = 0; i < CALLS; i++) if (fn().aborted) aborted++;
  return ((performance.now() - start) * 1e6) / CALLS;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
round(listener);
round(any);
const a = [];
const b = [];
for (let r = 0; r < ROUNDS; r++) {
  a.push(round(listener));
  b.push(round(any));
  await new Promise((r) => setImmediate(r)); // let any() signals' cleanup run between rounds
}
console.log(JSON.stringify({ node: process.version, listenerNs: Math.round(median(a)), anyNs: Math.round(median(b)), aborted }));
