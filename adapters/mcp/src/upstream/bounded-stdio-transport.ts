// The stdio transport for upstream MCP servers (both SDK eras): starts the server's process and
// speaks JSON-RPC a line each way, like the SDKs' StdioClientTransport, except that no line of the
// server's is held past `maxMessageBytes` (dispatch.maxResultBytes). The SDKs' transports read a
// whole line into memory first, however long. An oversized answer is dropped as it arrives and its
// request is answered here, with a JSON-RPC error the upstream client reads as
// upstream_answer_too_large; the lines after it are read as usual, so the connection stays usable.
import { spawn, type ChildProcess } from 'node:child_process';
import { PassThrough, type Readable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { BoundedLineReader } from './bounded-line-reader.js';

/** The JSON-RPC error code of the answer given in place of one that was too large (our own). */
export const ANSWER_TOO_LARGE_CODE = -32_090;

type Id = string | number;
type Message = { jsonrpc: '2.0'; id?: Id; method?: string } & Record<string, unknown>;

export interface BoundedStdioOptions {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string | undefined;
  /** 'pipe' keeps the server's stderr readable (`stderr`), 'ignore' drops it. */
  stderr: 'pipe' | 'ignore';
  maxMessageBytes: number;
  /** Reads one line as a JSON-RPC message in the SDK's own terms (its deserializeMessage). */
  parse: (line: string) => unknown;
}

/** How long a server may take to exit once its stdin is closed, and again once told SIGTERM. */
const EXIT_GRACE_MS = 2000;

/** Typed as the v1 SDK's Transport; the v2 SDK's is the same shape on the wire. */
export class BoundedStdioTransport implements Transport {
  onclose?: Transport['onclose'];
  onerror?: Transport['onerror'];
  onmessage?: Transport['onmessage'];

  private process: ChildProcess | undefined;
  private readonly reader: BoundedLineReader;
  /** Our requests not yet answered: an oversized answer that does not say its id fails them all. */
  private readonly pending = new Set<Id>();
  /** Messages read and not yet handed to the SDK, oldest first (deliver). */
  private readonly inbox: JSONRPCMessage[] = [];
  private delivering = false;
  /** The server's stderr, readable before start so nothing it says early is lost. */
  readonly stderr: Readable | null;

  constructor(private readonly options: BoundedStdioOptions) {
    this.reader = new BoundedLineReader(options.maxMessageBytes);
    this.stderr = options.stderr === 'pipe' ? new PassThrough() : null;
  }

  start(): Promise<void> {
    if (this.process) throw new Error('the stdio transport is already started');
    return new Promise((resolve, reject) => {
      const child = spawn(this.options.command, this.options.args, {
        env: this.options.env,
        stdio: ['pipe', 'pipe', this.options.stderr],
        shell: false,
        ...(this.options.cwd ? { cwd: this.options.cwd } : {}),
      });
      this.process = child;
      child.on('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.on('spawn', () => resolve());
      child.on('close', () => {
        this.process = undefined;
        this.pending.clear();
        this.reader.clear();
        this.flush();
        this.onclose?.();
      });
      child.stdin!.on('error', (error) => this.onerror?.(error));
      child.stdout!.on('error', (error) => this.onerror?.(error));
      child.stdout!.on('data', (chunk: Buffer) => this.read(chunk));
      if (this.stderr && child.stderr) child.stderr.pipe(this.stderr as PassThrough);
    });
  }

  send(sent: JSONRPCMessage): Promise<void> {
    const message = sent as Message;
    return new Promise((resolve, reject) => {
      const stdin = this.process?.stdin;
      if (!stdin) return reject(new Error('Not connected'));
      if (message.method !== undefined && message.id !== undefined) this.pending.add(message.id);
      if (stdin.write(JSON.stringify(message) + '\n')) resolve();
      else stdin.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    const child = this.process;
    this.process = undefined;
    this.reader.clear();
    if (!child) return;
    const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
    const within = (ms: number) => Promise.race([closed, new Promise<void>((resolve) => setTimeout(resolve, ms).unref())]);
    try {
      child.stdin?.end();
    } catch {
      // already gone
    }
    await within(EXIT_GRACE_MS);
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await within(EXIT_GRACE_MS);
    }
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }

  private read(chunk: Buffer): void {
    const events = this.reader.feed(chunk);
    if (!this.reader.holds(chunk)) freeNow(chunk);
    for (const event of events) {
      if ('line' in event) {
        if (event.line.trim() === '') continue;
        let message: Message;
        try {
          message = this.options.parse(event.line) as Message;
        } catch (error) {
          this.onerror?.(error as Error);
          continue;
        }
        if (message.method === undefined && message.id !== undefined) this.pending.delete(message.id);
        this.inbox.push(message as JSONRPCMessage);
      } else {
        for (const id of this.answeredBy(event.oversized.head, event.oversized.tail)) {
          this.pending.delete(id);
          this.inbox.push(tooLarge(id, this.options.maxMessageBytes, event.oversized.bytes) as JSONRPCMessage);
        }
      }
    }
    this.deliver();
  }

  /**
   * Hands what was read to the SDK, in order. The SDK settles an answer at once (forgetting its
   * call's progress handler) but runs a notification's handler a microtask later, so a progress
   * notification read together with its call's answer would reach a call already gone: an answer
   * that follows a notification handed over in the same turn waits for the next turn of the event
   * loop, when that handler has run. Everything else goes at once.
   */
  private deliver(): void {
    if (this.delivering) return;
    this.delivering = true;
    const next = (): void => {
      let notified = false;
      while (this.inbox.length > 0) {
        const message = this.inbox[0] as Message;
        const answer = message.method === undefined;
        if (answer && notified) {
          setImmediate(next);
          return;
        }
        this.inbox.shift();
        this.onmessage?.(message as JSONRPCMessage);
        if (!answer && message.id === undefined) notified = true;
      }
      this.delivering = false;
    };
    next();
  }

  /** Whatever was read and not yet handed over goes now (the process closed). */
  private flush(): void {
    while (this.inbox.length > 0) this.onmessage?.(this.inbox.shift()!);
  }

  /**
   * The requests an oversized line answered: the one its id names (SDK servers write the id first
   * or last), else every request still pending, since the line's answer is lost either way. A line
   * that is itself a request or notification from the server answers nothing.
   */
  private answeredBy(head: string, tail: string): Id[] {
    if (/^\s*\{\s*"method"\s*:/.test(head)) return [];
    const id = idAt(head, /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")/) ?? idAt(tail, /"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")\s*\}\s*$/);
    if (id !== undefined) return this.pending.has(id) ? [id] : [];
    return [...this.pending];
  }
}

function idAt(text: string, pattern: RegExp): Id | undefined {
  const m = pattern.exec(text);
  if (!m) return undefined;
  try {
    return JSON.parse(m[1]!) as Id;
  } catch {
    return undefined;
  }
}

function tooLarge(id: Id, limit: number, bytes: number): Message {
  return {
    jsonrpc: '2.0',
    id,
    error: { code: ANSWER_TOO_LARGE_CODE, message: `the upstream's answer passed ${limit} bytes (${bytes} bytes, not read)`, data: { max_bytes: limit } },
  };
}

/**
 * Frees a chunk read from the pipe now, not when the collector gets to it. Each read is its own
 * ArrayBuffer of up to 64 KiB held outside the heap; on Node 22 and 24 the chunks of a long answer
 * piled up to 20-60 MB before a collection came (on Node 20, 4-10 MB), so peak memory followed the
 * size of an answer that is dropped as it arrives. Detaching it (ArrayBuffer.transfer, not on Node
 * 20) releases its memory at once; only a chunk that is its buffer's whole and is held by nothing
 * else (this transport is its stream's only reader) is freed.
 */
function freeNow(chunk: Buffer): void {
  const buffer = chunk.buffer as ArrayBuffer & { transfer?: (length: number) => ArrayBuffer };
  if (!(buffer instanceof ArrayBuffer) || typeof buffer.transfer !== 'function') return;
  if (chunk.byteOffset !== 0 || chunk.byteLength !== buffer.byteLength) return;
  buffer.transfer(0);
}
