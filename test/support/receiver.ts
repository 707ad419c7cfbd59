// A real HTTP receiver on loopback for forwarding tests: records every request (headers and raw
// body) and answers what the test says, per request.
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** How to answer one request: a status (and body), or 'hang' to never answer. */
export type Answer = { status: number; body?: string | Buffer } | 'hang';

export interface Receiver {
  port: number;
  url(path?: string): string;
  received: Received[];
  /** Decides each answer; by default 200. */
  answer: (req: Received, index: number) => Answer;
  /** Requests left hanging now, and the most there were at once. */
  hanging(): number;
  peakHanging: number;
  /** Answers every hanging request with this status. */
  release(status?: number): void;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const hanging = new Set<ServerResponse>();
  const receiver: Receiver = {
    port: 0,
    url: (path = '/in') => `http://127.0.0.1:${receiver.port}${path}`,
    received: [],
    answer: () => ({ status: 200, body: 'ok' }),
    hanging: () => hanging.size,
    peakHanging: 0,
    release: (status = 200) => {
      for (const res of hanging) res.writeHead(status, { 'content-type': 'text/plain' }).end('released');
      hanging.clear();
    },
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const got: Received = { path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) };
      const index = receiver.received.push(got) - 1;
      const answer = receiver.answer(got, index);
      if (answer === 'hang') {
        hanging.add(res);
        receiver.peakHanging = Math.max(receiver.peakHanging, hanging.size);
        res.on('close', () => hanging.delete(res));
        return;
      }
      res.writeHead(answer.status, { 'content-type': 'text/plain' });
      res.end(answer.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  return receiver;
}

/** Polls until `check` answers a value (not undefined), or fails after `ms` with the last state. */
export async function eventually<T>(check: () => Promise<T | undefined>, what: string, ms = 15_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
