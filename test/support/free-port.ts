// A port nobody listens on right now: bind one on loopback, then release it. For the programs a test
// starts that take a port number rather than 0 (PostgreSQL, nginx, proxies, receivers).
import { createServer, type AddressInfo } from 'node:net';

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}
