// Issue 20's "done when", in Chromium on each engine: an MCP SDK client that knows only the /mcp
// URL follows the 401's WWW-Authenticate to the resource metadata, finds the authorization server,
// registers itself (RFC 7591) and sends the owner to consent; the browser signs in to the dashboard
// with the API key, clicks Allow, and lands on the client's loopback redirect URI with the code.
// The client then calls a tool with its access token (a share token), and the run is in the ledger
// under the token's fingerprint with the client id as actor.
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { TEST_API_KEY, engines, startListeningService, type ListeningService } from '../support/app.js';
import { SHOTS, launchChromium } from '../support/browser.js';
import { fingerprintOf } from '../support/oauth.js';

const EDGE = 'EDGE_BUILDS_WORKERS_BUILDS_SET_ACTIVE_WORKER';
const WORKER = '0123456789abcdef0123456789abcdef';

/** An MCP client's OAuth state, in memory; the authorization URL is handed to the test's browser. */
class BrowserHandedProvider implements OAuthClientProvider {
  info: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | null = null;
  constructor(private readonly callback: string) {}
  get redirectUrl(): string {
    return this.callback;
  }
  get clientMetadata(): OAuthClientMetadata {
    return { client_name: 'Chromium test assistant', redirect_uris: [this.callback], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
  }
  state(): string {
    return 'state-from-the-client';
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed): void {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens): void {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL): void {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(v: string): void {
    this.verifier = v;
  }
  codeVerifier(): string {
    return this.verifier;
  }
}

for (const engine of engines()) {
  describe(`OAuth consent for an MCP client, in Chromium (${engine})`, function () {
    this.timeout(90_000);
    let svc: ListeningService;
    let browser: Browser;
    let callbackServer: Server;
    let callbackUrl: string;
    const arrived: URL[] = [];

    before(async function () {
      browser = await launchChromium(this);
      svc = await startListeningService(engine);
      // The client's loopback redirect URI: it answers a page and keeps what arrived.
      callbackServer = createServer((req, res) => {
        arrived.push(new URL(req.url!, 'http://127.0.0.1'));
        res.writeHead(200, { 'content-type': 'text/html' }).end('<p id="done">You can close this window.</p>');
      }).listen(0, '127.0.0.1');
      await new Promise((r) => callbackServer.once('listening', r));
      callbackUrl = `http://127.0.0.1:${(callbackServer.address() as import('node:net').AddressInfo).port}/callback`;
    });
    after(async () => {
      await browser?.close();
      callbackServer?.close();
      await svc?.close();
    });

    it('discovers, registers, gets consent in the browser and calls a tool; the run is the client\'s, under the token\'s fingerprint', async () => {
      const mcpUrl = new URL(`${svc.url}/mcp`);
      const provider = new BrowserHandedProvider(callbackUrl);
      const first = new Client({ name: 'oauth-e2e', version: '0.0.0' });
      const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
      let refused: unknown = null;
      await first.connect(transport).catch((err: unknown) => (refused = err));
      expect(refused, 'the first connection needs the owner\'s consent').to.be.instanceOf(UnauthorizedError);
      expect(provider.info?.client_id, 'registered dynamically').to.match(/^cl_/);
      const authorizationUrl = provider.authorizationUrl!;
      expect(authorizationUrl.href.startsWith(`${svc.url}/dashboard/oauth/authorize?`)).to.equal(true);
      expect(authorizationUrl.searchParams.get('resource')).to.equal(`${svc.url}/mcp`);
      expect(authorizationUrl.searchParams.get('code_challenge_method')).to.equal('S256');

      const page = await browser.newPage();
      try {
        await page.goto(authorizationUrl.href);
        // Not signed in: the dashboard's sign-in form, which comes back to the same request.
        await page.fill('#api_key', TEST_API_KEY);
        await Promise.all([page.waitForURL((u) => u.pathname === '/dashboard/oauth/authorize'), page.click('button[type=submit]:has-text("Sign in")')]);
        expect(await page.textContent('#client-name')).to.equal('Chromium test assistant');
        expect(await page.textContent('#redirect-uri')).to.equal(callbackUrl);
        expect(await page.locator('#consent-keys input[type=checkbox]').count()).to.be.greaterThan(1);
        // Consent asks for the minimum: a destructive, high-risk or approval-gated tool starts unticked and says why.
        const box = (key: string) => page.locator(`#consent-keys input[value="${key}"]`);
        expect(await box(EDGE).isChecked()).to.equal(true);
        expect(await box('WEB_FETCH').isChecked()).to.equal(false);
        expect(await box('PAYMENTS_PROCESSOR_API_SEARCH').isChecked()).to.equal(false);
        expect(await page.locator('[data-key="WEB_FETCH"] .consent-cautions').getAttribute('data-cautions')).to.equal('destructive');
        expect(await page.locator('[data-key="PAYMENTS_PROCESSOR_API_SEARCH"] .consent-cautions').textContent()).to.contain('high risk').and.contain('approval');
        expect(await page.locator(`[data-key="${EDGE}"] .consent-cautions`).count()).to.equal(0);
        // Readable names, never tree paths.
        expect(await page.locator(`[data-key="${EDGE}"] .consent-title`).textContent()).to.equal('Builds workers builds set active worker (Edge)');
        expect(await page.locator('#consent-keys').textContent()).to.not.contain(' > ');
        await page.screenshot({ path: join(SHOTS, `oauth-consent-${engine}.png`), fullPage: true });
        // Narrow to the one tool, then allow.
        for (const box of await page.locator('#consent-keys input[type=checkbox]').all()) if ((await box.getAttribute('value')) !== EDGE) await box.uncheck();
        await Promise.all([page.waitForURL((u) => u.href.startsWith(callbackUrl)), page.click('button[value=allow]')]);
        expect(await page.textContent('#done')).to.contain('close this window');
      } finally {
        await page.close();
      }
      // The browser may ask the callback's host for more (a favicon): the redirect is the one to /callback.
      const back = arrived.filter((u) => u.pathname === '/callback').at(-1)!;
      expect(back.searchParams.get('state')).to.equal('state-from-the-client');
      expect(back.searchParams.get('iss')).to.equal(svc.url);
      await transport.finishAuth(back.searchParams.get('code')!);
      await first.close();

      const client = new Client({ name: 'oauth-e2e', version: '0.0.0' });
      await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
      try {
        expect((await client.listTools()).tools.map((t) => t.name)).to.deep.equal([EDGE]);
        const ran = (await client.callTool({ name: EDGE, arguments: { workerId: WORKER } })) as CallToolResult;
        const inv = (ran.structuredContent as { invocation: string; ok: boolean }).invocation;
        const res = await fetch(`${svc.url}/api/invocations/${inv}`, { headers: { 'x-sheets-key': TEST_API_KEY } });
        const record = ((await res.json()) as { invocation: { actor: string; fingerprint: string; key: string } }).invocation;
        expect(record).to.include({ actor: provider.info!.client_id, fingerprint: fingerprintOf(provider.saved!.access_token), key: EDGE });
      } finally {
        await client.close();
      }
    });

    it('lists only the tools a client asked for in its scope, and ticks none that carries a caution', async () => {
      const provider = new BrowserHandedProvider(callbackUrl);
      const first = new Client({ name: 'oauth-scope', version: '0.0.0' });
      const transport = new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp`), { authProvider: provider });
      await first.connect(transport).catch(() => {});
      const url = new URL(provider.authorizationUrl!.href);
      url.searchParams.set('scope', `invoke:${EDGE} invoke:WEB_FETCH`);
      const page = await browser.newPage();
      try {
        await page.goto(url.href);
        await page.fill('#api_key', TEST_API_KEY);
        await Promise.all([page.waitForURL((u) => u.pathname === '/dashboard/oauth/authorize'), page.click('button[type=submit]:has-text("Sign in")')]);
        const boxes = await page.locator('#consent-keys input[type=checkbox]').all();
        const state = await Promise.all(boxes.map(async (b) => [await b.getAttribute('value'), await b.isChecked()]));
        expect(state).to.deep.equal([[EDGE, true], ['WEB_FETCH', false]]);
        expect(await page.textContent('#consent-keys legend')).to.equal('Tools (2)');
      } finally {
        await page.close();
        await first.close();
      }
    });
  });
}
