// The transform sandbox: destination transforms run in a small pool of child processes
// (transform-evaluator.ts), each with a heap bound, one evaluation at a time and a hard deadline
// on it. A worker thread is not enough: V8's fatal errors (a heap limit reached, a string or an
// array past its size) abort the whole process, worker_threads resourceLimits or not. An evaluator
// that dies or passes its deadline is killed and replaced; the attempt fails with the reason
// (core's sandboxStopped), and the service's event loop never ran the expression.
import { fork, type ChildProcess } from 'node:child_process';
import { TRANSFORM_DEADLINE_MS, TRANSFORM_MAX_HEAP_MB, sandboxStopped, type TransformInput, type TransformResult, type TransformSandbox } from '@switchyard/core';

export interface TransformSandboxOptions {
  /** Evaluators at most (each one a process, started when first needed). */
  evaluators: number;
  deadlineMs: number;
  heapMb: number;
  /** How long an evaluator may take to start (tsx compiling it, from source, on a loaded machine). */
  startMs: number;
}

export const DEFAULT_TRANSFORM_SANDBOX: TransformSandboxOptions = { evaluators: 2, deadlineMs: TRANSFORM_DEADLINE_MS, heapMb: TRANSFORM_MAX_HEAP_MB, startMs: 30_000 };

interface Pending {
  expression: string;
  input: TransformInput;
  resolve: (result: TransformResult) => void;
  /** Set when it is sent: the answer names it. */
  id?: number;
}

interface Evaluator {
  child: ChildProcess;
  ready: boolean;
  /** The evaluation it is running (or will, once ready). */
  busy: Pending | null;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** The end of what it wrote on stderr: V8 says there why it aborted. */
  stderr: string;
  exited: Promise<void>;
}

/** Run from source (tests, `npm run dev`), the evaluator is TypeScript too, and needs tsx. */
const FROM_SOURCE = import.meta.url.endsWith('.ts');
const ENTRY = new URL(`./transform-evaluator.${FROM_SOURCE ? 'ts' : 'js'}`, import.meta.url);

function sourceArgs(): string[] {
  let tsx = 'tsx';
  try {
    tsx = import.meta.resolve('tsx');
  } catch {
    // resolved from the working directory instead
  }
  return ['--conditions=switchyard-source', '--import', tsx];
}

/** What V8 said when it aborted (its FATAL line), with the exit code or signal. */
function deathOf(e: Evaluator, code: number | null, signal: NodeJS.Signals | null): string {
  const fatal = e.stderr.split('\n').map((l) => l.replace(/^#\s*/, '').trim()).find((l) => /fatal/i.test(l));
  const how = signal ? `signal ${signal}` : `exit code ${code}`;
  return fatal ? `${fatal}; ${how}` : how;
}

let nextId = 1;

/** An evaluator with work keeps this process running until it answers; an idle one does not. */
function hold(e: Evaluator, busy: boolean): void {
  if (busy) {
    e.child.ref();
    e.child.channel?.ref();
  } else {
    e.child.unref();
    e.child.channel?.unref();
  }
}

export class ProcessTransformSandbox implements TransformSandbox {
  private readonly evaluators = new Set<Evaluator>();
  private readonly idle: Evaluator[] = [];
  private readonly queue: Pending[] = [];

  constructor(private readonly options: TransformSandboxOptions = DEFAULT_TRANSFORM_SANDBOX) {}

  evaluate(expression: string, input: TransformInput): Promise<TransformResult> {
    // Not JSON: nothing to send across (core's rule answers the same in the evaluator).
    if (input.body === undefined) return Promise.resolve({ ok: false, message: 'the delivery body is not JSON, so it cannot be transformed' });
    return new Promise((resolve) => {
      this.queue.push({ expression, input, resolve });
      this.pump();
    });
  }

  async close(): Promise<void> {
    const all = [...this.evaluators];
    for (const p of this.queue.splice(0)) p.resolve(sandboxStopped({ kind: 'unavailable', detail: 'the service is stopping' }));
    for (const e of all) this.retire(e, sandboxStopped({ kind: 'unavailable', detail: 'the service is stopping' }));
    await Promise.all(all.map((e) => e.exited));
  }

  /** Evaluators started, for tests and the metrics of a process. */
  get size(): number {
    return this.evaluators.size;
  }

  private pump(): void {
    while (this.queue.length > 0) {
      let evaluator = this.idle.pop();
      if (!evaluator && this.evaluators.size < this.options.evaluators) {
        try {
          evaluator = this.spawn();
        } catch (err) {
          this.queue.shift()!.resolve(sandboxStopped({ kind: 'unavailable', detail: `its evaluator did not start (${(err as Error).message})` }));
          continue;
        }
      }
      if (!evaluator) return;
      evaluator.busy = this.queue.shift()!;
      hold(evaluator, true);
      if (evaluator.ready) this.run(evaluator);
    }
  }

  private spawn(): Evaluator {
    // No environment of the service's (its database URL, its keys): the evaluator needs none.
    const env: NodeJS.ProcessEnv = process.env['TMPDIR'] ? { TMPDIR: process.env['TMPDIR'] } : {};
    const child = fork(ENTRY, [], {
      execArgv: [`--max-old-space-size=${this.options.heapMb}`, ...(FROM_SOURCE ? sourceArgs() : [])],
      env,
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'json',
    });
    const e: Evaluator = { child, ready: false, busy: null, timer: undefined, stderr: '', exited: new Promise((r) => child.once('exit', () => r())) };
    this.evaluators.add(e);
    hold(e, false);
    (child.stderr as { unref?: () => void } | null)?.unref?.();
    child.stderr?.on('data', (d: Buffer) => (e.stderr = (e.stderr + d.toString()).slice(-4096)));
    // One that never says it is ready is given up (its evaluation fails, the next one starts anew).
    e.timer = setTimeout(() => {
      this.retire(e, sandboxStopped({ kind: 'unavailable', detail: `its evaluator did not start in ${this.options.startMs} ms` }));
      this.pump();
    }, this.options.startMs);
    e.timer.unref();
    child.on('message', (m: { ready?: true; id?: number; result?: TransformResult }) => {
      if (m.ready) {
        clearTimeout(e.timer);
        e.ready = true;
        if (e.busy) this.run(e);
        return;
      }
      if (!e.busy || m.id !== e.busy.id) return;
      const done = e.busy;
      clearTimeout(e.timer);
      e.busy = null;
      hold(e, false);
      this.idle.push(e);
      done.resolve(m.result!);
      this.pump();
    });
    child.once('exit', (code, signal) => {
      if (!this.evaluators.has(e)) return;
      const detail = deathOf(e, code, signal);
      this.retire(e, e.ready ? sandboxStopped({ kind: 'died', detail, heapMb: this.options.heapMb }) : sandboxStopped({ kind: 'unavailable', detail: `its evaluator did not start (${detail})` }));
      this.pump();
    });
    child.on('error', () => undefined);
    return e;
  }

  private run(e: Evaluator): void {
    const p = e.busy!;
    p.id = nextId++;
    e.timer = setTimeout(() => {
      this.retire(e, sandboxStopped({ kind: 'deadline', ms: this.options.deadlineMs }));
      this.pump();
    }, this.options.deadlineMs);
    // A channel that closed meanwhile: the exit handler answers the evaluation.
    e.child.send({ id: p.id, expression: p.expression, input: p.input }, () => undefined);
  }

  /** Kills an evaluator and answers its evaluation, if any, with `result`; a new one takes its place when needed. */
  private retire(e: Evaluator, result: TransformResult): void {
    this.evaluators.delete(e);
    const at = this.idle.indexOf(e);
    if (at >= 0) this.idle.splice(at, 1);
    clearTimeout(e.timer);
    // Until it has exited, so that close() sees it go.
    e.child.ref();
    if (e.child.exitCode === null && e.child.signalCode === null) e.child.kill('SIGKILL');
    const busy = e.busy;
    e.busy = null;
    busy?.resolve(result);
  }
}
