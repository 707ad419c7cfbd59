// The MCP Inspector's CLI mode (installed as a devDependency, nothing downloaded at run time) as a
// child process against /mcp on a loopback test service, on each engine: an independent client
// agreeing with ours on tools/list, tools/call and the unknown-tool error.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { TEST_API_KEY, engines, startListeningService, type ListeningService } from '../support/app.js';

const EDGE = 'EDGE_BUILDS_WORKERS_BUILDS_SET_ACTIVE_WORKER';
const WORKER = '0123456789abcdef0123456789abcdef';
// The inspector's own launcher (`mcp-inspector-cli`), which in --cli mode runs its CLI client.
const INSPECTOR = join(dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector-cli/package.json')), 'build', 'cli.js');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

const inspect = (url: string, args: string[]): Promise<Run> =>
  new Promise((resolve) => {
    // cwd: inspector-cli 1.0.3 looks for its package.json with existsSync('../package.json'),
    // relative to the working directory rather than to itself; from its build/ folder that holds.
    execFile(process.execPath, [INSPECTOR, '--cli', `${url}/mcp`, '--transport', 'http', ...args], { timeout: 20_000, cwd: dirname(INSPECTOR) }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });

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
}
