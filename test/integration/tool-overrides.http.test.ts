// Per-tool overrides through the whole service, on each engine, against a real stdio MCP server:
// through the SDK client a renamed, retitled tool with a fixed argument (out of the shown schema,
// a caller's value replaced) and a default; a hidden tool nowhere; and an override naming a tool or
// an argument the server does not have refuses the start, naming the config key.
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ConfigError, createLogger, createSwitchyard, deepMerge, loadConfig } from '@switchyard/app';
import { TEST_API_KEY, engines, freshDatabase, startListeningService, type ListeningService } from '../support/app.js';
import { CHANGING_FIXTURE } from '../support/everything-server.js';

const OPEN = { auth: 'none', risk: 'low', approval: false };
const search = { name: 'search', description: 'Searches an account', inputSchema: { type: 'object', properties: { account: { type: 'string' }, query: { type: 'string' }, limit: { type: 'integer' } }, required: ['account', 'query'], additionalProperties: false } };
const wipe = { name: 'wipe', description: 'Deletes everything', inputSchema: { type: 'object' } };

for (const engine of engines()) {
  describe(`tool overrides (${engine})`, function () {
    this.timeout(60_000);
    let svc: ListeningService;
    let dir: string;
    let file: string;
    const clients: Client[] = [];
    const server = (tools: Record<string, unknown>) => ({ crm: { system: 'CRM', transport: 'stdio', command: process.execPath, args: [CHANGING_FIXTURE], env: { DEFINITIONS_FILE: file }, defaults: OPEN, tools } });
    const connect = async (path: string) => {
      const client = new Client({ name: 'overrides-test', version: '0.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}${path}`), { requestInit: { headers: { 'x-sheets-key': TEST_API_KEY } } }));
      clients.push(client);
      return client;
    };

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'switchyard-overrides-'));
      file = join(dir, 'definitions.json');
      writeFileSync(file, JSON.stringify([search, wipe]));
      svc = await startListeningService(engine, {
        upstreams: {
          connectTimeoutMs: 20_000,
          servers: server({ search: { name: 'find_customer', title: 'Find a customer', description: 'Finds a customer of the Acme account', fixed: { account: 'acme' }, default_arguments: { limit: 10 } }, wipe: { hidden: true } }),
        },
      });
    });
    after(async () => {
      for (const c of clients) await c.close().catch(() => {});
      await svc?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('shows the renamed tool with its title and description, the fixed argument gone and the default shown, on /mcp and /mcp/servers/crm', async () => {
      const all = (await (await connect('/mcp')).listTools()).tools;
      const tool = all.find((t) => t.name === 'CRM_FIND_CUSTOMER')!;
      expect(tool).to.include({ title: 'Find a customer' });
      expect(tool.description).to.contain('Finds a customer of the Acme account');
      expect(tool.inputSchema.properties).to.deep.equal({ query: { type: 'string' }, limit: { type: 'integer', default: 10 } });
      expect(tool.inputSchema.required).to.deep.equal(['query']);
      expect(all.map((t) => t.name)).to.not.include('CRM_SEARCH').and.not.include('CRM_WIPE');
      expect((await (await connect('/mcp/servers/crm')).listTools()).tools.map((t) => t.name)).to.deep.equal(['find_customer']);
    });

    it('runs with the fixed value, replacing one a caller sends, and the default where the caller gives none', async () => {
      const client = await connect('/mcp/servers/crm');
      const ran = (await client.callTool({ name: 'find_customer', arguments: { query: 'ada', account: 'someone-else' } })) as CallToolResult;
      expect(ran.isError).to.not.equal(true);
      const text = (ran.content as Array<{ text: string }>)[0]!.text;
      // The upstream was called by its own name, with the fixed account and the default limit.
      expect(JSON.parse(text)).to.deep.equal({ tool: 'search', args: { query: 'ada', limit: 10, account: 'acme' } });
    });

    it('runs a hidden tool nowhere', async () => {
      const res = await request(svc.url).post('/api/dispatch').set('x-sheets-key', TEST_API_KEY).send({ key: 'CRM_WIPE', body: {} }).expect(404);
      expect(res.body.error.code).to.equal('unknown_capability');
    });

    it('refuses a start whose override names an argument or a tool the server does not have, naming the config key', async () => {
      const refusal = async (tools: Record<string, unknown>) => {
        // Its own database, dropped after: a refused start has no service to close it.
        const db = await freshDatabase(engine);
        try {
          const config = loadConfig({ env: {}, overrides: deepMerge({ database: { url: db.url }, auth: { apiKey: TEST_API_KEY }, log: { level: 'silent' } }, { upstreams: { connectTimeoutMs: 20_000, servers: server(tools) } }) });
          const started = await createSwitchyard(config, { logger: createLogger('silent') }).then(
            async (s) => {
              await s.close();
              return null;
            },
            (err: Error) => err,
          );
          expect(started, 'the start was refused').to.be.instanceOf(ConfigError);
          return started!.message;
        } finally {
          await db.drop();
        }
      };
      expect(await refusal({ search: { fixed: { acount: 'acme' } } })).to.equal('config upstreams.servers.crm.tools.search.fixed.acount: tool search has no argument acount (it has: account, limit, query)');
      expect(await refusal({ serch: { title: 'Typo' } })).to.equal('config upstreams.servers.crm.tools.serch: server crm lists no tool serch');
    });
  });
}
