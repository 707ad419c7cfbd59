// An MCP server over streamable HTTP that answers in the wrong era: it refuses the 2026-07-28
// probe as any 2025 server does and accepts initialize at 2025-11-25, but answers tools/call with
// the 2026 revision's InputRequiredResult (resultType "input_required"), which a 2025 session has
// no way to fulfil. Raw HTTP, so nothing in an SDK smooths it over. The requests it saw are kept.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface WrongEraUpstream {
  url: string;
  /** The methods of the requests it received, in order. */
  seen: string[];
  close(): Promise<void>;
}

const TOOL = { name: 'ask', description: 'Answers with an InputRequiredResult', inputSchema: { type: 'object', properties: {} } };

export async function startWrongEraUpstream(): Promise<WrongEraUpstream> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    req.on('end', () => {
      if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST' }).end();
      const message = JSON.parse(text || '{}') as { id?: unknown; method?: string };
      seen.push(message.method ?? '(answer)');
      const answer = (result: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
      switch (message.method) {
        case 'initialize':
          return answer({ protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'wrong-era', version: '1.0.0' } });
        case 'tools/list':
          return answer({ tools: [TOOL] });
        case 'tools/call':
          return answer({ resultType: 'input_required', inputRequests: { confirm: { method: 'elicitation/create', params: { message: 'Sure?', requestedSchema: { type: 'object', properties: {} } } } }, requestState: 'opaque' });
        default:
          if (message.id === undefined) return void res.writeHead(202).end();
          // What a 2025 server says to a request it does not know, the 2026 probe included.
          return void res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Bad Request: Server not initialized' } }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    seen,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
