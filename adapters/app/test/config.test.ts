// Config loading: defaults, SWITCHYARD_CONFIG merge, env overrides, and errors that name the key.
import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../src/config.js';

const tmpFile = (content: string): string => {
  const path = join(mkdtempSync(join(tmpdir(), 'sy-config-')), 'c.json');
  writeFileSync(path, content);
  return path;
};

const failsWith = (fn: () => unknown, key: string): void => {
  try {
    fn();
    expect.fail('should have thrown');
  } catch (err) {
    expect(err, String(err)).to.be.instanceOf(ConfigError);
    expect((err as ConfigError).key).to.equal(key);
    expect((err as ConfigError).message).to.contain(key);
  }
};

describe('adapter app: config', () => {
  it('has defaults: 127.0.0.1:8080, SQLite under ./data, all four plugins on simulators', () => {
    const c = loadConfig({ env: {} });
    expect(c.server).to.include({ host: '127.0.0.1', port: 8080, publicBaseUrl: null, bodyLimitBytes: 1048576 });
    expect(c.database.url).to.equal('sqlite:./data/switchyard.db');
    expect(Object.keys(c.plugins)).to.deep.equal(['edge', 'messaging', 'payments', 'web-fetch']);
    expect((c.plugins['edge'] as { upstream: { transport: string } }).upstream.transport).to.equal('sse');
    expect(c.content.folder).to.equal('./content');
  });

  it('applies env overrides', () => {
    const c = loadConfig({
      env: { PORT: '9090', HOST: '0.0.0.0', DATABASE_URL: 'postgres://u@h:5432/d', SWITCHYARD_API_KEY: 'k'.repeat(20), LOG_LEVEL: 'warn', PUBLIC_BASE_URL: 'https://sy.example.com' },
    });
    expect(c.server).to.include({ port: 9090, host: '0.0.0.0', publicBaseUrl: 'https://sy.example.com' });
    expect(c.database.url).to.equal('postgres://u@h:5432/d');
    expect(c.auth.apiKey).to.equal('k'.repeat(20));
    expect(c.log.level).to.equal('warn');
    expect(loadConfig({ env: { SWITCHYARD_CONTENT_FOLDER: '/srv/articles' } }).content.folder).to.equal('/srv/articles');
  });

  it('keeps /metrics behind the API key unless metrics.public or SWITCHYARD_METRICS_PUBLIC says otherwise', () => {
    expect(loadConfig({ env: {} }).metrics.public).to.equal(false);
    expect(loadConfig({ env: { SWITCHYARD_METRICS_PUBLIC: 'true' } }).metrics.public).to.equal(true);
    expect(loadConfig({ env: { SWITCHYARD_METRICS_PUBLIC: 'false' }, overrides: {} }).metrics.public).to.equal(false);
    expect(loadConfig({ env: {}, overrides: { metrics: { public: true } } }).metrics.public).to.equal(true);
    failsWith(() => loadConfig({ env: { SWITCHYARD_METRICS_PUBLIC: 'yes' } }), 'metrics.public');
    failsWith(() => loadConfig({ env: {}, overrides: { metrics: { public: 'yes' } } }), 'metrics.public');
    failsWith(() => loadConfig({ env: {}, overrides: { metrics: { path: '/m' } } }), 'metrics.path');
  });

  it('keeps private payloads unless retention.privateDays is a positive number of days', () => {
    expect(loadConfig({ env: {} }).retention?.privateDays ?? null).to.equal(null);
    expect(loadConfig({ env: {}, overrides: { retention: { privateDays: 30, intervalMs: 1000 } } }).retention).to.deep.equal({ privateDays: 30, intervalMs: 1000 });
    for (const bad of [0, -1, 'thirty', 40000]) failsWith(() => loadConfig({ env: {}, overrides: { retention: { privateDays: bad } } }), 'retention.privateDays');
    failsWith(() => loadConfig({ env: {}, overrides: { retention: { days: 3 } } }), 'retention.days');
  });

  it('runs every role in one process unless SWITCHYARD_ROLE says api or worker, which need PostgreSQL', () => {
    expect(loadConfig({ env: {} }).role).to.equal('all');
    const pg = 'postgres://u@h:5432/d';
    expect(loadConfig({ env: { SWITCHYARD_ROLE: 'api', DATABASE_URL: pg } }).role).to.equal('api');
    expect(loadConfig({ env: { SWITCHYARD_ROLE: 'worker', DATABASE_URL: 'postgresql://u@h/d' } }).role).to.equal('worker');
    expect(loadConfig({ env: { SWITCHYARD_ROLE: 'all' } }).role).to.equal('all');
    failsWith(() => loadConfig({ env: { SWITCHYARD_ROLE: 'web', DATABASE_URL: pg } }), 'role');
    failsWith(() => loadConfig({ env: { SWITCHYARD_ROLE: 'api' } }), 'role');
    failsWith(() => loadConfig({ env: { DATABASE_URL: 'sqlite:./x.db' }, overrides: { role: 'worker' } }), 'role');
  });

  it('reads trusted proxies from server.trustedProxies or SWITCHYARD_TRUSTED_PROXIES and refuses what is not an address or range', () => {
    expect(loadConfig({ env: {} }).server.trustedProxies).to.deep.equal([]);
    expect(loadConfig({ env: { SWITCHYARD_TRUSTED_PROXIES: '10.0.0.0/8, fd00::/8,loopback,192.0.2.7' } }).server.trustedProxies).to.deep.equal(['10.0.0.0/8', 'fd00::/8', 'loopback', '192.0.2.7']);
    expect(loadConfig({ env: {}, overrides: { server: { trustedProxies: ['::1', '172.16.0.0/12'] } } }).server.trustedProxies).to.deep.equal(['::1', '172.16.0.0/12']);
    for (const bad of ['nginx', '10.0.0.0/33', '10.0.0.1/8/8', 'fd00::/129', '10.0.0.0/x', '*']) failsWith(() => loadConfig({ env: {}, overrides: { server: { trustedProxies: [bad] } } }), 'server.trustedProxies');
    failsWith(() => loadConfig({ env: {}, overrides: { server: { trustedProxies: '10.0.0.1' } } }), 'server.trustedProxies');
  });

  it('merges the SWITCHYARD_CONFIG file over the defaults, key by key', () => {
    const file = tmpFile(JSON.stringify({ dispatch: { timeoutMs: 1234 }, plugins: { messaging: { simulator: { plan: 'free' } } } }));
    const c = loadConfig({ env: { SWITCHYARD_CONFIG: file } });
    expect(c.dispatch.timeoutMs).to.equal(1234);
    expect(c.plugins['messaging']).to.deep.include({ enabled: true, simulator: { plan: 'free' } });
  });

  it('names the key of a bad value', () => {
    failsWith(() => loadConfig({ env: { PORT: 'eighty' } }), 'server.port');
    failsWith(() => loadConfig({ env: {}, overrides: { server: { port: 70000 } } }), 'server.port');
    failsWith(() => loadConfig({ env: { LOG_LEVEL: 'loud' } }), 'log.level');
    failsWith(() => loadConfig({ env: {}, overrides: { server: { colour: 'blue' } } }), 'server.colour');
    failsWith(() => loadConfig({ env: { SWITCHYARD_API_KEY: 'short' } }), 'auth.apiKey');
    failsWith(() => loadConfig({ env: { PUBLIC_BASE_URL: 'ftp://x' } }), 'server.publicBaseUrl');
    failsWith(() => loadConfig({ env: {}, overrides: { content: { folder: '' } } }), 'content.folder');
  });

  it('checks upstreams.servers and names the key of a bad setting', () => {
    const server = (s: Record<string, unknown>) => ({ upstreams: { servers: { everything: { system: 'EVERYTHING', transport: 'stdio', command: 'node', ...s } } } });
    const c = loadConfig({ env: {}, overrides: server({ args: ['x.js', 'stdio'], tools: { echo: { auth: 'none', risk: 'low', approval: false } }, defaults: { approval: true } }) });
    expect(c.upstreams.servers?.['everything']).to.deep.include({ system: 'EVERYTHING', transport: 'stdio', command: 'node' });
    expect(loadConfig({ env: {} }).upstreams.servers).to.equal(undefined);
    failsWith(() => loadConfig({ env: {}, overrides: server({ transport: 'ftp' }) }), 'upstreams.servers.everything.transport');
    failsWith(() => loadConfig({ env: {}, overrides: server({ system: 'everything' }) }), 'upstreams.servers.everything.system');
    failsWith(() => loadConfig({ env: {}, overrides: server({ command: undefined }) }), 'upstreams.servers.everything');
    failsWith(() => loadConfig({ env: {}, overrides: server({ transport: 'streamable-http' }) }), 'upstreams.servers.everything');
    failsWith(() => loadConfig({ env: {}, overrides: server({ tools: { echo: { auth: 'maybe' } } }) }), 'upstreams.servers.everything.tools.echo.auth');
    failsWith(() => loadConfig({ env: {}, overrides: server({ defaults: { approve: true } }) }), 'upstreams.servers.everything.defaults.approve');
    failsWith(() => loadConfig({ env: {}, overrides: server({ colour: 'blue' }) }), 'upstreams.servers.everything.colour');
    failsWith(() => loadConfig({ env: {}, overrides: { upstreams: { servers: { 'Bad Name': { system: 'X', transport: 'sse', url: 'http://h/sse' } } } } }), 'upstreams.servers');
  });

  it('names SWITCHYARD_CONFIG when its file is missing or not JSON', () => {
    failsWith(() => loadConfig({ env: { SWITCHYARD_CONFIG: '/nonexistent/switchyard.json' } }), 'SWITCHYARD_CONFIG');
    failsWith(() => loadConfig({ env: { SWITCHYARD_CONFIG: tmpFile('{not json') } }), 'SWITCHYARD_CONFIG');
  });

  it('reads upstream OAuth sealing keys from SWITCHYARD_UPSTREAM_OAUTH_KEYS, newest first, and checks each server\'s oauth', () => {
    const a = Buffer.alloc(32, 1).toString('base64');
    const b = Buffer.alloc(32, 2).toString('base64');
    const config = loadConfig({ env: { SWITCHYARD_UPSTREAM_OAUTH_KEYS: `new:${a},old:${b}` } });
    expect(config.upstreams.oauthKeys).to.deep.equal([{ kid: 'new', secret: a }, { kid: 'old', secret: b }]);
    failsWith(() => loadConfig({ env: { SWITCHYARD_UPSTREAM_OAUTH_KEYS: 'k:tooshort' } }), 'upstreams.oauthKeys.0.secret');
    const server = (oauth: unknown) => ({ upstreams: { servers: { s: { system: 'S', transport: 'streamable-http', url: 'https://mcp.example.com/mcp', oauth } } } });
    expect(loadConfig({ env: {}, overrides: server({ grant: 'authorization_code' }) }).upstreams.servers!['s']!.oauth).to.deep.equal({ grant: 'authorization_code' });
    failsWith(() => loadConfig({ env: {}, overrides: server({ grant: 'implicit' }) }), 'upstreams.servers.s.oauth.grant');
    failsWith(() => loadConfig({ env: {}, overrides: server({ grant: 'authorization_code', token: 'x' }) }), 'upstreams.servers.s.oauth.token');
  });
});
