// A raw HTTP/1.1 client over a socket, for what ordinary clients cannot do: send a head and only
// part of the body (or none), trickle chunks, and see the answer arrive before the body is sent.
import { connect, type Socket } from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: Record<string, any>;
}

export interface RawRequest {
  socket: Socket;
  /** Resolves with the first answer on this connection, parsed. */
  answer: Promise<RawAnswer>;
  write(bytes: Buffer | string): void;
  close(): void;
}

/** Opens a connection and sends the request line and headers (header pairs exactly as given). */
export function openRaw(port: number, method: string, path: string, headers: Array<[string, string]>): Promise<RawRequest> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('error', reject);
    socket.once('connect', () => {
      socket.off('error', reject);
      socket.on('error', () => {});
      const answer = new Promise<RawAnswer>((done, fail) => {
        let buffered = Buffer.alloc(0);
        const tryParse = (final: boolean): void => {
          const end = buffered.indexOf('\r\n\r\n');
          if (end < 0) {
            if (final) fail(new Error(`connection closed without an answer: ${JSON.stringify(buffered.toString())}`));
            return;
          }
          const lines = buffered.subarray(0, end).toString('latin1').split('\r\n');
          const status = Number(lines[0]!.split(' ')[1]);
          const head: Record<string, string> = {};
          for (const line of lines.slice(1)) {
            const at = line.indexOf(':');
            head[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
          }
          const length = Number(head['content-length'] ?? 0);
          const body = buffered.subarray(end + 4);
          if (body.length < length && !final) return;
          socket.off('data', onData);
          const text = body.subarray(0, length).toString();
          done({ status, headers: head, body: text && head['content-type']?.includes('json') ? JSON.parse(text) : { text } });
        };
        const onData = (chunk: Buffer): void => {
          buffered = Buffer.concat([buffered, chunk]);
          tryParse(false);
        };
        socket.on('data', onData);
        socket.once('close', () => tryParse(true));
      });
      answer.catch(() => {});
      const head = [`${method} ${path} HTTP/1.1`, `Host: 127.0.0.1:${port}`, ...headers.map(([n, v]) => `${n}: ${v}`), '', ''].join('\r\n');
      socket.write(head);
      resolve({
        socket,
        answer,
        write: (bytes) => {
          if (!socket.destroyed) socket.write(bytes);
        },
        close: () => socket.destroy(),
      });
    });
  });
}

/** One chunk of a chunked body, framed. */
export const chunk = (bytes: Buffer): Buffer => Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from('\r\n')]);
export const LAST_CHUNK = '0\r\n\r\n';
