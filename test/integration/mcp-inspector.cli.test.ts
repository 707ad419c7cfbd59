// The MCP Inspector's CLI mode (installed as a devDependency, nothing downloaded at run time) as a
// child process against the MCP faces of a loopback test service, on each engine: an independent
// client agreeing with ours on tools/list, tools/call and the unknown-tool error; and, asked the same
// of an upstream directly (stdio or streamable HTTP) and through Switchyard, getting the same
// answers: content of every type, tool metadata, resources, templates, prompts, JSON-RPC errors.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PROJECT_ROOT } from '@switchyard/app';
import { toolDefinitionHash, type McpToolDescription } from '@switchyard/core';
import { TEST_API_KEY, engines, startListeningService, type ListeningService } from '../support/app.js';
import { startConformanceUpstream, type ConformanceUpstream } from '../support/conformance-upstream.js';

const EDGE = 'EDGE_BUILDS_WORKERS_BUILDS_SET_ACTIVE_WORKER';
const WORKER = '0123456789abcdef0123456789abcdef';
// The inspector's own launcher (`mcp-inspector-cli`), which in --cli mode runs its CLI client.
const INSPECTOR = join(dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector-cli/package.json')), 'build', 'cli.js');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** The inspector's CLI with `target` (a URL, or a command and its arguments) and `args`. */
const inspector = (target: string[], args: string[]): Promise<Run> =>
  new Promise((resolve) => {
    // cwd: inspector-cli 1.0.3 looks for its package.json with existsSync('../package.json'),
    // relative to the working directory rather than to itself; from its build/ folder that holds.
    execFile(process.execPath, [INSPECTOR, '--cli', ...target, ...args], { timeout: 20_000, cwd: dirname(INSPECTOR) }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
const inspect = (url: string, args: string[]) => inspector([`${url}/mcp`, '--transport', 'http'], args);

/** The JSON a successful inspector run printed. */
function answer<T = Record<string, unknown>>(run: Run): T {
  expect(run.code, run.stderr).to.equal(0);
  return JSON.parse(run.stdout) as T;
}

const OPEN = { auth: 'none', risk: 'low', approval: false };
const FAITHFUL = join(PROJECT_ROOT, 'test', 'support', 'faithful-mcp-server.mjs');
/** What the gateway keeps of a tool as its upstream listed it; the description gains the auth · risk line. */
const METADATA = ['title', 'annotations', 'outputSchema', '_meta', 'inputSchema'] as const;
type ListedTool = { name: string; description?: string } & Partial<Record<(typeof METADATA)[number], unknown>>;
/** What the gateway shows of a field: as the upstream gave it, and in _meta also the hash of the pinned definition (issue 30). */
const shownAs = (original: ListedTool, field: (typeof METADATA)[number]): unknown =>
  field === '_meta' ? { ...(original._meta as Record<string, unknown> | undefined), 'switchyard/definition_hash': toolDefinitionHash(original as McpToolDescription) } : original[field];

for (const engine of engines()) {
  describe(`MCP Inspector CLI against /mcp (${engine})`, function () {
    this.timeout(60_000);
    let svc: ListeningService;
    const key = ['--header', `x-sheets-key: ${TEST_API_KEY}`];

    before(async () => {
      svc = await startListeningService(engine);
    });
    after(async () => svc?.close());

    it('tools/list with the API key lists every capability with its input schema', async () => {
      const run = await inspect(svc.url, [...key, '--method', 'tools/list']);
      expect(run.code, run.stderr).to.equal(0);
      const { tools } = JSON.parse(run.stdout) as { tools: { name: string; inputSchema: unknown }[] };
      const { registry } = svc.switchyard;
      expect(tools.map((t) => t.name).sort()).to.deep.equal(registry.list().map((c) => c.key).sort());
      expect(tools.find((t) => t.name === EDGE)!.inputSchema).to.deep.equal(registry.require(EDGE).capability.inputs);
    });

    it('tools/call runs EDGE and returns the invocation id in structuredContent', async () => {
      const run = await inspect(svc.url, [...key, '--method', 'tools/call', '--tool-name', EDGE, '--tool-arg', `workerId=${WORKER}`]);
      expect(run.code, run.stderr).to.equal(0);
      const result = JSON.parse(run.stdout) as { isError?: boolean; structuredContent: { ok: boolean; invocation: string; result: { active_worker_id: string } } };
      expect(result.isError).to.equal(false);
      expect(result.structuredContent.ok).to.equal(true);
      expect(result.structuredContent.result.active_worker_id).to.equal(WORKER);
      const read = await fetch(`${svc.url}/api/invocations/${result.structuredContent.invocation}`, { headers: { 'x-sheets-key': TEST_API_KEY } });
      expect(((await read.json()) as { invocation: object }).invocation).to.include({ key: EDGE, source: 'mcp', ok: true });
    });

    it('an unknown tool fails the command with the JSON-RPC error; no credential fails with 401', async () => {
      const unknown = await inspect(svc.url, [...key, '--method', 'tools/call', '--tool-name', 'EDGE_SET_ACTIVE_WORKER', '--tool-arg', `workerId=${WORKER}`]);
      expect(unknown.code).to.not.equal(0);
      expect(unknown.stdout + unknown.stderr).to.contain('-32602').and.contain('no capability with key');
      const anonymous = await inspect(svc.url, ['--method', 'tools/list']);
      expect(anonymous.code).to.not.equal(0);
      expect(anonymous.stdout + anonymous.stderr).to.contain('credential_required');
    });
  });

  describe(`MCP Inspector CLI: the same answers directly and through Switchyard (${engine})`, function () {
    // Each inspector run is a child process that connects anew: slow on a busy machine.
    this.timeout(240_000);
    let svc: ListeningService;
    let upstream: ConformanceUpstream;
    const key = ['--header', `x-sheets-key: ${TEST_API_KEY}`];
    /** The faithful fixture over stdio, asked directly. */
    const direct = (args: string[]) => inspector([process.execPath, FAITHFUL], args);
    /** A face of the service, as the owner. */
    const through = (path: string, args: string[]) => inspector([`${svc.url}${path}`, '--transport', 'http'], [...key, ...args]);
    /** The conformance reference over streamable HTTP, directly and as /mcp/servers/conformance. */
    const both = async (args: string[]) => Promise.all([inspector([upstream.url, '--transport', 'http'], args), through('/mcp/servers/conformance', args)]);

    before(async () => {
      upstream = await startConformanceUpstream();
      svc = await startListeningService(engine, {
        upstreams: {
          servers: {
            faithful: { system: 'FAITHFUL', transport: 'stdio', command: process.execPath, args: [FAITHFUL], defaults: OPEN },
            conformance: { system: 'CONFORMANCE', transport: 'streamable-http', url: upstream.url, defaults: OPEN },
          },
        },
        mcp: { pageSize: 5, virtualServers: { media: { description: 'Media tools', tools: ['FAITHFUL_ALL_CONTENT', 'FAITHFUL_SAY', 'FAITHFUL_BIG_IMAGE'] } } },
      });
    });
    after(async () => {
      await svc?.close();
      await upstream?.close();
    });

    it('passes content of every type and structuredContent through /mcp unchanged', async () => {
      const [mine, theirs] = await Promise.all([through('/mcp', ['--method', 'tools/call', '--tool-name', 'FAITHFUL_ALL_CONTENT']), direct(['--method', 'tools/call', '--tool-name', 'all-content'])]);
      const gateway = answer<{ content: { type: string }[]; structuredContent: unknown; isError?: boolean }>(mine);
      const upstreamSaid = answer<{ content: unknown[]; structuredContent: unknown }>(theirs);
      expect(gateway.content.map((b) => b.type)).to.deep.equal(['text', 'image', 'audio', 'resource_link', 'resource', 'resource']);
      expect(gateway.content).to.deep.equal(upstreamSaid.content);
      expect(gateway.structuredContent).to.deep.equal(upstreamSaid.structuredContent);
      expect(gateway.isError).to.equal(false);
    });

    it('lists an imported server\'s tools under their upstream names with the metadata the upstream gave, paged', async () => {
      const upstreamTools = answer<{ tools: ListedTool[] }>(await direct(['--method', 'tools/list'])).tools;
      const page = answer<{ tools: ListedTool[]; nextCursor?: string }>(await through('/mcp/servers/faithful', ['--method', 'tools/list']));
      // Five a page (mcp.pageSize), with a cursor to the rest of the fixture's nine.
      expect(page.tools).to.have.length(5);
      expect(page.nextCursor).to.be.a('string');
      for (const tool of page.tools) {
        const original = upstreamTools.find((t) => t.name === tool.name);
        expect(original, tool.name).to.not.equal(undefined);
        for (const field of METADATA) expect(tool[field], `${tool.name}.${field}`).to.deep.equal(shownAs(original!, field));
        expect(tool.description).to.match(/ \[.+ · .+\]$/).and.satisfy((d: string) => d.startsWith(original!.description!));
      }
    });

    it('lists a curated server\'s tools under their keys with their upstream metadata: annotations absent stay absent', async () => {
      const upstreamTools = answer<{ tools: ListedTool[] }>(await direct(['--method', 'tools/list'])).tools;
      const { tools } = answer<{ tools: ListedTool[] }>(await through('/mcp/v/media', ['--method', 'tools/list']));
      expect(tools.map((t) => t.name).sort()).to.deep.equal(['FAITHFUL_ALL_CONTENT', 'FAITHFUL_BIG_IMAGE', 'FAITHFUL_SAY']);
      for (const tool of tools) {
        const original = upstreamTools.find((t) => `FAITHFUL_${t.name.replace(/-/g, '_').toUpperCase()}` === tool.name)!;
        for (const field of METADATA) expect(tool[field], `${tool.name}.${field}`).to.deep.equal(shownAs(original, field));
      }
      const say = tools.find((t) => t.name === 'FAITHFUL_SAY')!;
      expect(say).to.not.have.property('annotations');
      expect(say).to.not.have.property('title');
      expect(tools.find((t) => t.name === 'FAITHFUL_ALL_CONTENT')).to.deep.include({ title: 'Every content type', annotations: { readOnlyHint: true, idempotentHint: true } });
      expect(tools.find((t) => t.name === 'FAITHFUL_ALL_CONTENT')!._meta).to.deep.include({ 'example.com/owner': 'gateway tests' });
      // (The inspector parses a --tool-arg that looks like JSON, so only plain text can be sent as text.)
      const said = answer<{ content: unknown[] }>(await through('/mcp/v/media', ['--method', 'tools/call', '--tool-name', 'FAITHFUL_SAY', '--tool-arg', 'text=  said as given\n']));
      expect(said.content).to.deep.equal([{ type: 'text', text: '  said as given\n' }]);
    });

    it('calls an imported server\'s tools by their upstream names: image, audio and embedded resources as the upstream gave them', async () => {
      for (const tool of ['test_image_content', 'test_audio_content', 'test_embedded_resource', 'test_multiple_content_types']) {
        const [upstreamSaid, gateway] = await both(['--method', 'tools/call', '--tool-name', tool]);
        expect(answer<{ content: unknown }>(gateway).content, tool).to.deep.equal(answer<{ content: unknown }>(upstreamSaid).content);
      }
      // Each was a run of its capability key.
      const ledger = await fetch(`${svc.url}/api/invocations?object_id=CONFORMANCE_TEST_AUDIO_CONTENT`, { headers: { 'x-sheets-key': TEST_API_KEY } });
      expect(((await ledger.json()) as { items: { key: string; ok: boolean }[] }).items[0]).to.include({ key: 'CONFORMANCE_TEST_AUDIO_CONTENT', ok: true });
    });

    it('forwards resources, resource templates and prompts of an imported server: the same answers as the upstream\'s', async () => {
      const asks = [
        ['--method', 'resources/list'],
        ['--method', 'resources/templates/list'],
        ['--method', 'resources/read', '--uri', 'test://static-binary'],
        ['--method', 'resources/read', '--uri', 'test://template/7/data'],
        ['--method', 'prompts/list'],
        ['--method', 'prompts/get', '--prompt-name', 'test_prompt_with_arguments', '--prompt-args', 'arg1=one', 'arg2=two'],
        ['--method', 'prompts/get', '--prompt-name', 'test_prompt_with_image'],
        ['--method', 'logging/setLevel', '--log-level', 'debug'],
      ];
      for (const args of asks) {
        const [upstreamSaid, gateway] = await both(args);
        expect(answer(gateway), args.join(' ')).to.deep.equal(answer(upstreamSaid));
      }
      const [, read] = await both(['--method', 'resources/read', '--uri', 'test://template/7/data']);
      expect(JSON.stringify(answer(read))).to.contain('Data for ID: 7');
    });

    it('answers with the JSON-RPC error: an unknown tool (-32602), the upstream\'s unknown resource (-32002) and unknown prompt (-32602)', async () => {
      const tool = await through('/mcp/servers/faithful', ['--method', 'tools/call', '--tool-name', 'no-such-tool']);
      expect(tool.code).to.not.equal(0);
      expect(tool.stdout + tool.stderr).to.contain('-32602').and.contain('unknown tool "no-such-tool" on faithful');
      for (const [args, code, text] of [
        [['--method', 'resources/read', '--uri', 'test://nowhere'], '-32002', 'Resource not found: test://nowhere'],
        [['--method', 'prompts/get', '--prompt-name', 'no_such_prompt'], '-32602', 'Unknown prompt: no_such_prompt'],
      ] as const) {
        const [upstreamSaid, gateway] = await both([...args]);
        for (const run of [upstreamSaid, gateway]) {
          expect(run.code, args.join(' ')).to.not.equal(0);
          expect(run.stdout + run.stderr, args.join(' ')).to.contain(code).and.contain(text);
        }
      }
    });

    it('pages /mcp\'s tools/list, and a tool past the first page is still called by name', async () => {
      const first = answer<{ tools: ListedTool[]; nextCursor?: string }>(await through('/mcp', ['--method', 'tools/list']));
      expect(first.tools).to.have.length(5);
      expect(first.nextCursor).to.be.a('string');
      const later = 'FAITHFUL_SUBSCRIPTIONS';
      expect(first.tools.map((t) => t.name)).to.not.include(later);
      const called = answer<{ content: { text: string }[]; isError: boolean }>(await through('/mcp', ['--method', 'tools/call', '--tool-name', later]));
      expect(called.isError).to.equal(false);
    });
  });
}
