// WEB_FETCH against a real HTTP server on loopback: fetching, redirects, caps, and every refusal.
// Loopback is itself refused by default, so the tests that must reach the server allowlist it,
// exactly as an operator would in config.
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CapabilityRegistry, DispatchService, OWNER, RunnerDirectory, systemClock, type StoredInvocation } from '@switchyard/core';
import { MemoryInvocationStore, pluginContract, startPluginHarness } from '@switchyard/plugin-kit/testing';
import { webFetchPlugin, defaultOptions, refusedRange, WebFetchRunner, type FetchResult, type Resolver, type WebFetchOptions } from '../src/index.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
let server: Server;
let port = 0;
const seen: Array<{ method: string; url: string; host: string; body: string; headers: Record<string, unknown> }> = [];

async function startServer(): Promise<void> {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, host: req.headers.host ?? '', body: Buffer.concat(chunks).toString(), headers: req.headers });
      const url = new URL(req.url!, 'http://x');
      if (url.pathname === '/text') return res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('héllo from loopback');
      if (url.pathname === '/json') return res.writeHead(201, { 'content-type': 'application/json' }).end('{"a":1}');
      if (url.pathname === '/binary') return res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
      if (url.pathname === '/big') return res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(2 * 1024 * 1024));
      if (url.pathname === '/echo') return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ method: req.method, body: Buffer.concat(chunks).toString(), token: req.headers['x-token'] ?? null }));
      if (url.pathname === '/redirect') return res.writeHead(302, { location: '/text' }).end();
      if (url.pathname === '/redirect-see-other') return res.writeHead(303, { location: '/echo' }).end();
      if (url.pathname === '/redirect-malformed') return res.writeHead(302, { location: 'http://x%25y/' }).end();
      if (url.pathname === '/redirect-loop') return res.writeHead(302, { location: '/redirect-loop' }).end();
      if (url.pathname === '/redirect-internal') return res.writeHead(302, { location: `http://localhost:${port}/text` }).end();
      if (url.pathname === '/slow') return void setTimeout(() => res.end('late'), 3000);
      res.writeHead(404).end('nope');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  port = (server.address() as AddressInfo).port;
}
const stopServer = async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
};

const LOOPBACK_ALLOWED: WebFetchOptions = { ...defaultOptions, allowCidrs: ['127.0.0.1/32'] };

pluginContract(webFetchPlugin, {
  async start() {
    await startServer();
    const h = await startPluginHarness(webFetchPlugin, { allowCidrs: ['127.0.0.1/32'] });
    return { ...h, close: async () => Promise.all([h.close(), stopServer()]).then(() => {}) };
  },
  get valid() {
    return {
      WEB_FETCH: [`GET|http://127.0.0.1:${port}/text||`, `POST|http://127.0.0.1:${port}/echo||a=1`, { method: 'GET', url: `http://127.0.0.1:${port}/json` }, `get|http://127.0.0.1:${port}/text||`],
    };
  },
  invalid: {
    WEB_FETCH: [
      'GET|ftp://example.com/||',
      'FETCH|http://example.com/||',
      'GET|not a url||',
      'GET|http://x%25y/||',
      'GET|http://example.com:99999/||',
      { method: 'GET' },
      { method: 'GET', url: 'http://example.com/', extra: 1 },
      { method: 'GET', url: 'http://example.com/', headers: { 'x-n': 1 } },
      'GET|http://example.com/',
    ],
  },
});

function dispatcher(options: WebFetchOptions, resolve?: Resolver) {
  const registry = new CapabilityRegistry();
  const runners = new RunnerDirectory();
  registry.register(webFetchPlugin.capabilities[0]!);
  runners.assign('WEB_FETCH', resolve ? new WebFetchRunner(options, resolve) : webFetchPlugin.createRunner({ options, tools: undefined as never }));
  const service = new DispatchService(registry, runners, new MemoryInvocationStore(), systemClock, { timeoutMs: 5000 });
  return async (body: unknown): Promise<StoredInvocation> => (await service.dispatch({ key: 'WEB_FETCH', body }, OWNER)).invocation;
}

describe('plugin web-fetch: fetching', function () {
  before(startServer);
  after(stopServer);
  const run = dispatcher(LOOPBACK_ALLOWED);

  it('answers status, headers and text body', async function () {
    const inv = await run(`GET|http://127.0.0.1:${port}/text||`);
    const r = inv.result as FetchResult;
    expect(inv.ok).to.equal(true);
    expect(r).to.include({ status: 200, body: 'héllo from loopback', body_encoding: 'text', truncated: false, url: `http://127.0.0.1:${port}/text` });
    expect(r.headers['content-type']).to.equal('text/plain; charset=utf-8');
  });

  it('sends the request body after the two pipes, and JSON-form headers', async function () {
    const piped = (await run(`POST|http://127.0.0.1:${port}/echo||hello|with|pipes`)).result as FetchResult;
    expect(JSON.parse(piped.body)).to.deep.equal({ method: 'POST', body: 'hello|with|pipes', token: null });
    const json = (await run({ method: 'PUT', url: `http://127.0.0.1:${port}/echo`, headers: { 'x-token': 't1' }, body: '{}' })).result as FetchResult;
    expect(JSON.parse(json.body)).to.deep.equal({ method: 'PUT', body: '{}', token: 't1' });
  });

  it('returns binary bodies as base64', async function () {
    const r = (await run(`GET|http://127.0.0.1:${port}/binary||`)).result as FetchResult;
    expect(r.body_encoding).to.equal('base64');
    expect(Buffer.from(r.body, 'base64').equals(PNG)).to.equal(true);
  });

  it('follows redirects and lists them; 303 turns a POST into a GET', async function () {
    const r = (await run(`GET|http://127.0.0.1:${port}/redirect||`)).result as FetchResult;
    expect(r.status).to.equal(200);
    expect(r.redirects).to.deep.equal([`http://127.0.0.1:${port}/text`]);
    const see = (await run(`POST|http://127.0.0.1:${port}/redirect-see-other||data`)).result as FetchResult;
    expect(JSON.parse(see.body)).to.include({ method: 'GET', body: '' });
  });

  it('gives up on a redirect loop as fetch_failed', async function () {
    const inv = await run(`GET|http://127.0.0.1:${port}/redirect-loop||`);
    expect(inv.error?.code).to.equal('fetch_failed');
    expect(inv.error?.message).to.contain('redirects');
  });

  it('fails a redirect to a malformed URL as fetch_failed (the upstream\'s text, never a crash)', async function () {
    const inv = await run(`GET|http://127.0.0.1:${port}/redirect-malformed||`);
    expect(inv).to.include({ ok: false, ran: true, status: 'failed' });
    expect(inv.error).to.include({ code: 'fetch_failed', message: 'the redirect names a malformed URL' });
  });

  it('cuts a body at the size cap and says so', async function () {
    const small = dispatcher({ ...LOOPBACK_ALLOWED, maxResponseBytes: 1000 });
    const r = (await small(`GET|http://127.0.0.1:${port}/big||`)).result as FetchResult;
    expect(r).to.include({ truncated: true, bytes: 1000 });
    expect(r.body).to.have.length(1000);
  });

  it('gives up on a slow server as upstream_timeout', async function () {
    const quick = dispatcher({ ...LOOPBACK_ALLOWED, timeoutMs: 300 });
    const inv = await quick(`GET|http://127.0.0.1:${port}/slow||`);
    expect(inv).to.include({ ok: false, status: 'failed' });
    expect(inv.error?.code).to.equal('upstream_timeout');
  });

  it('reports a refused connection as fetch_failed', async function () {
    const inv = await run('GET|http://127.0.0.1:1/||');
    expect(inv.error?.code).to.equal('fetch_failed');
    expect(inv.error?.['cause']).to.equal('ECONNREFUSED');
  });
});

describe('plugin web-fetch: refusals (no allowlist)', function () {
  before(startServer);
  after(stopServer);
  const run = dispatcher(defaultOptions);

  const cases: Array<[string, string]> = [
    ['http://127.0.0.1/', 'loopback'],
    ['http://localhost/', 'loopback'],
    ['http://[::1]/', 'loopback'],
    ['http://10.1.2.3/', 'private'],
    ['http://172.20.0.1/', 'private'],
    ['http://192.168.1.1/', 'private'],
    ['http://169.254.169.254/latest/meta-data/', 'cloud-metadata'],
    ['http://169.254.10.1/', 'link-local'],
    ['http://[fe80::1]/', 'link-local'],
    ['http://[fd12::1]/', 'private'],
    ['http://[::ffff:127.0.0.1]/', 'loopback'],
    ['http://[::ffff:0:7f00:1]/', 'loopback'],
    ['http://[::ffff:0:169.254.169.254]/latest/meta-data/', 'cloud-metadata'],
    ['http://0.0.0.0/', 'unspecified'],
    ['http://2130706433/', 'loopback'],
  ];
  for (const [url, range] of cases) {
    it(`refuses ${url} as ${range}, without connecting`, async function () {
      const before = seen.length;
      const inv = await run(`GET|${url}||`);
      expect(inv.ok).to.equal(false);
      expect(inv.error?.code).to.equal('blocked_address');
      expect(inv.error?.['range']).to.equal(range);
      expect(inv.error?.message).to.match(new RegExp(`, ${range === 'unspecified' ? 'an' : 'a'} ${range} address$`));
      expect(seen.length).to.equal(before);
    });
  }

  it('checks the address a name resolves to, and pins the connection to it (no second lookup)', async function () {
    let lookups = 0;
    const resolver: Resolver = async (host) => {
      lookups += 1;
      if (host === 'pinned.test') return [{ address: '127.0.0.1', family: 4 }];
      if (host === 'metadata.test') return [{ address: '169.254.169.254', family: 4 }];
      if (host === 'mixed.test') return [{ address: '93.184.215.14', family: 4 }, { address: '10.0.0.7', family: 4 }];
      throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    };
    const allowLoopback = dispatcher({ ...defaultOptions, allowCidrs: ['127.0.0.1/32'] }, resolver);
    const inv = await allowLoopback(`GET|http://pinned.test:${port}/text||`);
    expect(inv.ok, JSON.stringify(inv.error)).to.equal(true);
    expect(lookups).to.equal(1);
    expect(seen[seen.length - 1]!.host).to.equal(`pinned.test:${port}`);

    const strict = dispatcher(defaultOptions, resolver);
    expect((await strict('GET|http://metadata.test/||')).error).to.include({ code: 'blocked_address', range: 'cloud-metadata', address: '169.254.169.254' });
    expect((await strict('GET|http://mixed.test/||')).error).to.include({ code: 'blocked_address', address: '10.0.0.7' });
    expect((await strict('GET|http://nowhere.test/||')).error?.code).to.equal('fetch_failed');
  });

  it('checks every redirect hop again', async function () {
    const resolver: Resolver = async (host) => {
      if (host === 'allowed.test' || host === 'localhost') return [{ address: '127.0.0.1', family: 4 }];
      throw new Error('unexpected host');
    };
    const run2 = dispatcher({ ...defaultOptions, allowHosts: ['allowed.test'] }, resolver);
    expect((await run2(`GET|http://allowed.test:${port}/text||`)).ok).to.equal(true);
    const inv = await run2(`GET|http://allowed.test:${port}/redirect-internal||`);
    expect(inv.error).to.include({ code: 'blocked_address', host: 'localhost', range: 'loopback' });
  });
});

describe('plugin web-fetch: address ranges (pure)', function () {
  const table: Array<[string, string | null]> = [
    ['8.8.8.8', null],
    ['2606:4700:4700::1111', null],
    ['100.64.0.1', 'shared'],
    ['100.100.100.200', 'cloud-metadata'],
    ['fd00:ec2::254', 'cloud-metadata'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['::ffff:a9fe:a9fe', 'cloud-metadata'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['2001:db8::1', 'documentation'],
    // IPv6 addresses that carry an IPv4 one are judged by it.
    ['0:0:0:0:0:ffff:7f00:1', 'loopback'],
    ['::7f00:1', 'loopback'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['2002:7f00:1::', 'loopback'],
    ['2002:a9fe:a9fe::1', 'cloud-metadata'],
    ['2002:c0a8:101::', 'private'],
    ['2002:808:808::1', null],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'loopback'],
    ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', null],
    ['64:ff9b:1::a00:1', 'reserved'],
    // IPv4-translated (RFC 2765, ::ffff:0:0/96) and ISATAP (RFC 5214, any prefix).
    ['::ffff:0:7f00:1', 'loopback'],
    ['0:0:0:0:ffff:0:a9fe:a9fe', 'cloud-metadata'],
    ['::ffff:0:c0a8:101', 'private'],
    ['::ffff:0:808:808', null],
    ['2001:470::5efe:7f00:1', 'loopback'],
    ['2001:470::200:5efe:a00:1', 'private'],
    ['2001:470::200:5efe:808:808', null],
    ['not-an-ip', 'reserved'],
  ];
  for (const [address, range] of table) {
    it(`${address} → ${range ?? 'allowed'}`, function () {
      expect(refusedRange(address)).to.equal(range);
    });
  }
});
