// A POST of raw bytes with exactly the headers given (supertest would add its own), answered as JSON.
import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export function rawPost(server: Server, path: string, headers: Record<string, string>, body: Buffer): Promise<{ status: number; headers: Record<string, unknown>; body: Record<string, any> }> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method: 'POST', headers: { ...headers, 'content-length': String(body.length) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: JSON.parse(Buffer.concat(chunks).toString() || '{}') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}
