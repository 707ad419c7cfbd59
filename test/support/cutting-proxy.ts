// A TCP proxy in front of a PostgreSQL server that can cut one statement's connection on purpose, to
// make a write's fate unknown deterministically: `cutAfterReply` lets the statement reach the server
// and run, and its transaction too (alone, it commits with it; inside BEGIN … COMMIT, the replies
// until the COMMIT's go through), then drops the connection before the reply that says the
// transaction is over reaches the client, which sees only "Connection terminated" (the commit landed
// as the connection died); `cutBefore` drops it before the statement is sent (it cannot have landed,
// nor anything of its transaction).
// A cut drops every connection, and the proxy takes no new connection for `downMs` (each is closed at once), as a database
// restarting would, so the client's own retry of the write fails too and only a later lookup can tell.
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface CuttingProxy {
  port: number;
  /** Arms one cut: the next client message containing `marker` (e.g. the statement's SQL text). */
  cutAfterReply(marker: string, downMs: number): Promise<void>;
  cutBefore(marker: string, downMs: number): Promise<void>;
  close(): Promise<void>;
}

/** The end of an answer: ReadyForQuery ('Z', length 5), idle (no transaction open) or in a transaction. */
const READY = Buffer.from([0x5a, 0, 0, 0, 5, 0x49]);
const READY_IN_TRANSACTION = Buffer.from([0x5a, 0, 0, 0, 5, 0x54]);

export async function startCuttingProxy(targetPort: number): Promise<CuttingProxy> {
  const sockets = new Set<Socket>();
  let armed: { marker: string; after: boolean; downMs: number; done(): void } | null = null;
  let downUntil = 0;

  const server: Server = createServer((client) => {
    if (Date.now() < downUntil) return void client.destroy();
    const upstream = connect(targetPort, '127.0.0.1');
    sockets.add(client).add(upstream);
    // Every connection goes, as in a restart: the client's retry cannot slip through one already open.
    const cut = (downMs: number, done: () => void): void => {
      downUntil = Date.now() + downMs;
      for (const s of sockets) s.destroy();
      done();
    };
    let cutting: { downMs: number; done(): void; seen: Buffer } | null = null;
    client.on('data', (chunk: Buffer) => {
      const trap = armed;
      if (trap && chunk.includes(trap.marker)) {
        armed = null;
        if (!trap.after) return cut(trap.downMs, trap.done);
        cutting = { downMs: trap.downMs, done: trap.done, seen: Buffer.alloc(0) };
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (cutting) {
        // Held back until the server says the statement's transaction is over (committed), then
        // dropped; the answers within an open transaction go through, so the client gets to COMMIT.
        cutting.seen = Buffer.concat([cutting.seen, chunk]);
        const end = cutting.seen.subarray(-READY.length);
        if (end.equals(READY)) cut(cutting.downMs, cutting.done);
        else if (end.equals(READY_IN_TRANSACTION)) {
          client.write(cutting.seen);
          cutting.seen = Buffer.alloc(0);
        }
        return;
      }
      client.write(chunk);
    });
    const end = (): void => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  const arm = (marker: string, after: boolean, downMs: number): Promise<void> => new Promise((done) => (armed = { marker, after, downMs, done }));
  return {
    port: (server.address() as AddressInfo).port,
    cutAfterReply: (marker, downMs) => arm(marker, true, downMs),
    cutBefore: (marker, downMs) => arm(marker, false, downMs),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
