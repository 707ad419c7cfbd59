// `npm install && npm start` on a fresh clone runs the compiled service. The clone gets this
// checkout's installed packages as npm would lay them out (its own workspace links, everything else
// linked from here, since the tests stay off the network), runs its own `prepare` (what npm install
// runs after installing), then loses every dev-only package, as a production install
// (`npm ci --omit=dev`) would have it: tsx, mocha, chai and TypeScript gone. `npm start`'s command
// must then start, say once that simulators stand in for the vendors' servers, and run a dispatch
// and a webhook delivery forwarded to a receiver; with real upstream URLs configured it must start
// with the simulators' compiled code deleted.
import { expect } from 'chai';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { startEdgeSimulator } from '@switchyard/plugin-edge/simulator';
import { startMessagingSimulator } from '@switchyard/plugin-messaging/simulator';
import { startPaymentsSimulator } from '@switchyard/plugin-payments/simulator';
import { PROJECT_ROOT } from '@switchyard/app';
import { cleanEnv, npmStart, npmStartArgs, type StartedService } from '../support/npm-start.js';
import { eventually, startReceiver, type Receiver } from '../support/receiver.js';

const EDGE = 'EDGE_BUILDS_WORKERS_BUILDS_SET_ACTIVE_WORKER';
const SIMULATED = 'upstream simulators stand in for real servers';

interface LockEntry {
  dev?: boolean;
  link?: boolean;
  resolved?: string;
}
const lock = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> }).packages;
/** The top-level packages of the lockfile: name → entry. */
const topLevel = Object.entries(lock).flatMap(([path, entry]) => {
  const name = /^node_modules\/((?:@[^/]+\/)?[^/]+)$/.exec(path)?.[1];
  return name ? [[name, entry] as const] : [];
});

/** Lays out `clone`/node_modules: workspace links into the clone, other packages linked from here. */
function linkPackages(clone: string, withDev: boolean): void {
  const modules = join(clone, 'node_modules');
  rmSync(modules, { recursive: true, force: true });
  mkdirSync(modules);
  for (const [name, entry] of topLevel) {
    if (entry.dev && !withDev) continue;
    const at = join(modules, name);
    mkdirSync(dirname(at), { recursive: true });
    symlinkSync(entry.link ? join(clone, entry.resolved!) : join(PROJECT_ROOT, 'node_modules', name), at, 'dir');
  }
  if (withDev) symlinkSync(join(PROJECT_ROOT, 'node_modules', '.bin'), join(modules, '.bin'), 'dir');
}

const api = async (svc: StartedService, path: string, body?: unknown): Promise<{ status: number; json: Record<string, any> }> => {
  const res = await fetch(`${svc.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', 'x-sheets-key': svc.apiKey },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, json: (await res.json()) as Record<string, any> };
};
const dispatchEdge = (svc: StartedService) => api(svc, '/api/dispatch', { key: EDGE, body: JSON.stringify({ workerId: '0123456789abcdef0123456789abcdef' }) });

describe('repository: a fresh clone builds on install and npm start runs the compiled service', function () {
  this.timeout(600_000);
  let home: string;
  let clone: string;
  let receiver: Receiver;
  const running: StartedService[] = [];

  before(async () => {
    home = mkdtempSync(join(tmpdir(), 'switchyard-compiled-'));
    clone = join(home, 'switchyard');
    execFileSync('git', ['clone', '--quiet', '--no-hardlinks', PROJECT_ROOT, clone], { cwd: home });
    receiver = await startReceiver();
  });
  after(async () => {
    for (const svc of running) await svc.stop();
    await receiver?.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('keeps tsx, mocha and chai out of production installs: dev dependencies only, of the root and of every workspace', () => {
    for (const name of ['tsx', 'mocha', 'chai', 'typescript']) expect(lock[`node_modules/${name}`]?.dev, name).to.equal(true);
    // Our own packages (the root, '', and each workspace, by its folder) declare none of them at run time.
    for (const [path, entry] of Object.entries(lock).filter(([path]) => !path.startsWith('node_modules/'))) {
      const declared = entry as { dependencies?: Record<string, string>; peerDependencies?: Record<string, string> };
      const runtime = Object.keys({ ...declared.dependencies, ...declared.peerDependencies });
      for (const tool of ['tsx', 'mocha', 'chai']) expect(runtime, `${path || 'the root'}'s dependencies`).to.not.include(tool);
    }
  });

  it('builds with its own prepare script, which npm install runs', () => {
    const prepare = (JSON.parse(readFileSync(join(clone, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts['prepare'];
    expect(prepare, 'a prepare script').to.be.a('string');
    expect(existsSync(join(clone, 'adapters', 'app', 'dist')), 'no build in a clone').to.equal(false);
    linkPackages(clone, true);
    const run = spawnSync('npm', ['run', 'prepare'], { cwd: clone, encoding: 'utf8' });
    expect(run.status, `${run.stdout}\n${run.stderr}`).to.equal(0);
    expect(npmStartArgs(clone)).to.deep.equal(['adapters/app/dist/main.js']);
    expect(existsSync(join(clone, 'adapters', 'app', 'dist', 'main.js'))).to.equal(true);
  });

  it('starts without dev dependencies, says once that simulators stand in, runs a dispatch and forwards a delivery', async () => {
    linkPackages(clone, false);
    for (const name of ['tsx', 'mocha', 'chai', 'typescript']) expect(existsSync(join(clone, 'node_modules', name)), name).to.equal(false);
    const svc = await npmStart(clone, { DATABASE_URL: `sqlite:${join(home, 'simulated.db')}`, SWITCHYARD_FORWARD_ALLOW: `127.0.0.1:${receiver.port}` });
    running.push(svc);
    expect(svc.apiKey).to.match(/^sy_/);

    const ran = await dispatchEdge(svc);
    expect(ran.status, JSON.stringify(ran.json)).to.equal(200);
    expect(ran.json['invocation']).to.include({ key: EDGE, status: 'ok' });

    const hook = await api(svc, '/api/objects/webhook', { name: 'compiled' });
    expect(hook.status).to.equal(201);
    expect((await api(svc, `/api/objects/webhook/${hook.json['id']}/destinations`, { url: receiver.url('/compiled') })).status).to.equal(201);
    const sent = await fetch(hook.json['address'] as string, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"id":"evt_compiled_1"}' });
    expect(sent.status).to.be.within(200, 299);
    const got = await eventually(async () => receiver.received.find((r) => r.path === '/compiled'), 'the forwarded delivery');
    expect(got.body.toString('utf8')).to.equal('{"id":"evt_compiled_1"}');

    const warnings = svc.stderr().split('\n').filter((line) => line.includes(SIMULATED));
    expect(warnings, svc.stderr()).to.have.length(1);
    expect(JSON.parse(warnings[0]!)).to.deep.include({ level: 'warn', plugins: ['edge', 'messaging', 'payments'] });
    expect(await svc.stop(), svc.stderr()).to.equal(0);
  });

  it('runs as the Dockerfile says: its build steps are these, its CMD starts the service, its HEALTHCHECK passes, SIGTERM exits 0', async () => {
    const dockerfile = readFileSync(join(clone, 'Dockerfile'), 'utf8').replace(/\\\n\s*/g, ' ');
    const stages = dockerfile.split(/^FROM /m).slice(1);
    expect(stages, 'a build stage and a runtime stage').to.have.length(2);
    // The build stage runs what this suite did: install with dev dependencies (npm ci, whose prepare
    // builds), the build, then the production layout (prune the dev dependencies).
    const build = stages[0]!.match(/^RUN (.+)$/gm)!.join(' ');
    for (const step of ['npm ci', 'npm run build', 'npm prune --omit=dev']) expect(build, step).to.contain(step);
    const runtime = stages[1]!;
    expect(runtime).to.match(/^USER node$/m);
    const env = Object.fromEntries([...runtime.matchAll(/^ENV (.+)$/gm)].flatMap((m) => [...m[1]!.matchAll(/(\w+)=(\S+)/g)].map((kv) => [kv[1]!, kv[2]!])));
    expect(env).to.include({ NODE_ENV: 'production', HOST: '0.0.0.0', PORT: '8080' });
    const cmd = JSON.parse(/^CMD (\[.+\])$/m.exec(runtime)![1]!) as string[];
    const health = JSON.parse(/^HEALTHCHECK .*?CMD (\[.+\])$/m.exec(runtime)![1]!) as string[];
    expect(cmd[0], 'node itself is PID 1').to.equal('node');
    expect(health[0]).to.equal('node');
    const healthy = (port: string) => spawnSync(process.execPath, health.slice(1), { cwd: clone, env: { ...process.env, PORT: port }, timeout: 10_000 }).status;

    // The image's command and environment (on loopback and a free port here: tests listen nowhere else).
    const child = spawn(process.execPath, cmd.slice(1), { cwd: clone, env: cleanEnv({ ...env, HOST: '127.0.0.1', PORT: '0', DATABASE_URL: `sqlite:${join(home, 'image.db')}` }), stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.once('exit', (code) => reject(new Error(`the image's command exited with ${code}`)));
        createInterface({ input: child.stdout! }).on('line', (line) => {
          if (line.includes('"switchyard listening"')) resolve((JSON.parse(line) as { url: string }).url);
        });
      });
      const port = new URL(url).port;
      expect(healthy(port), 'the health check passes while the service runs').to.equal(0);
      child.kill('SIGTERM');
      expect(await exited, 'SIGTERM ends it cleanly').to.equal(0);
      expect(healthy(port), 'and fails once it is gone').to.equal(1);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });

  it('starts on real upstream URLs with no simulator code present, and says nothing of simulators', async () => {
    for (const plugin of readdirSync(join(clone, 'plugins'))) rmSync(join(clone, 'plugins', plugin, 'dist', 'simulator'), { recursive: true, force: true });
    expect(existsSync(join(clone, 'plugins', 'edge', 'dist', 'simulator'))).to.equal(false);
    // The "real" servers: the simulators of this checkout, on loopback, as any MCP server would be.
    const servers = await Promise.all([startEdgeSimulator({ host: '127.0.0.1', port: 0 }), startMessagingSimulator({ host: '127.0.0.1', port: 0 }), startPaymentsSimulator({ host: '127.0.0.1', port: 0 })]);
    try {
      const [edge, messaging, payments] = servers;
      const config = join(home, 'real-upstreams.json');
      writeFileSync(config, JSON.stringify({ plugins: { edge: { upstream: { url: edge!.url, transport: 'sse' } }, messaging: { upstream: { url: messaging!.url, transport: 'streamable-http' } }, payments: { upstream: { url: payments!.url, transport: 'streamable-http' } } } }));
      const svc = await npmStart(clone, { DATABASE_URL: `sqlite:${join(home, 'real.db')}`, SWITCHYARD_CONFIG: config });
      running.push(svc);
      const ran = await dispatchEdge(svc);
      expect(ran.status, JSON.stringify(ran.json)).to.equal(200);
      expect(ran.json['invocation']).to.include({ key: EDGE, status: 'ok' });
      expect(await svc.stop(), svc.stderr()).to.equal(0);
      const said = [...svc.stdout, svc.stderr()].join('\n');
      expect(said).to.not.contain(SIMULATED).and.to.not.contain('upstream simulator started');
    } finally {
      await Promise.all(servers.map((s) => s.close()));
    }
  });
});
