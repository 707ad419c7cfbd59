// A loopback HTTP proxy that adds headers (a credential) to every request it forwards, as an MCP
// client configured with a token does. For test harnesses that cannot send headers of their own and
// drop a URL's query on some of their requests (the conformance suite's raw header probes), so that
// every request they make reaches Switchyard with the caller's credential, none by a side channel.
// Like a reverse proxy it keeps the client's Host: the service must accept the proxy's name
// (mcp.allowedHosts), and a request naming another host is still refused as it would be directly.
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';

export interface CredentialProxy {
  /** The proxy's origin: a path and query appended here reach `target` unchanged. */
  url: string;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1:`port` (take one from freePort, to allow its name before the target starts). */
export async function startCredentialProxy(port: number, target: string, headers: Record<string, string>): Promise<CredentialProxy> {
  const to = new URL(target);
  const forward = (req: IncomingMessage, res: ServerResponse) => {
    const upstream = request({ hostname: to.hostname, port: to.port, path: req.url, method: req.method, headers: { ...req.headers, ...headers } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', (err) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`proxy: ${err.message}`);
    });
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  };
  const server = createServer(forward);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
