// The client command the MCP conformance suite runs for its client auth scenarios:
//   node [--conditions=switchyard-source] --import tsx test/support/conformance-client.ts <server url>
// It drives Switchyard's own upstream client (McpUpstreamClient with UpstreamOAuthClients, the
// sealed credential store on a real SQLite database), configured for the scenario the suite names
// in MCP_CONFORMANCE_SCENARIO (credentials in MCP_CONFORMANCE_CONTEXT). For the authorization-code
// scenarios the owner's consent is the dashboard's: begin (Connect), follow the authorization
// server's redirect headlessly (the suite's server answers at once), complete (the callback).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SwitchyardError, exampleFor, inputSchemaOf, type CallerChannel, type UpstreamAddress } from '@switchyard/core';
import { CredentialSealer, McpUpstreamClient, UpstreamOAuthClients, type UpstreamOAuthConfig } from '@switchyard/mcp';
import { KnexUpstreamCredentialStore, openDatabase } from '@switchyard/storage-knex';

const NAME = 'conformance';
const REDIRECT_URI = 'http://127.0.0.1:8080/dashboard/upstreams/conformance/callback';
/** The suite's test URL for client ID metadata documents (its authorization server never fetches it over the network for the flow). */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';

const url = process.argv[2];
if (!url) throw new Error('usage: conformance-client.ts <server url>');
const scenario = process.env['MCP_CONFORMANCE_SCENARIO'] ?? '';
const context = JSON.parse(process.env['MCP_CONFORMANCE_CONTEXT'] ?? '{}') as Record<string, string> & { toolCalls?: Array<{ name: string; arguments?: Record<string, unknown> }> };

function configFor(): UpstreamOAuthConfig {
  if (scenario === 'auth/client-credentials-basic') return { grant: 'client_credentials', clientId: context['client_id']!, clientSecret: context['client_secret']! };
  if (scenario === 'auth/client-credentials-jwt') return { grant: 'client_credentials', clientId: context['client_id']!, privateKey: context['private_key_pem']!, algorithm: context['signing_algorithm'] ?? 'ES256' };
  if (scenario === 'auth/pre-registration') return { grant: 'authorization_code', clientId: context['client_id']!, clientSecret: context['client_secret']! };
  return { grant: 'authorization_code', clientMetadataUrl: CLIENT_METADATA_URL };
}

// The database the test gives (SQLite or a PostgreSQL schema), else a SQLite file of its own.
const dir = mkdtempSync(join(tmpdir(), 'switchyard-conformance-client-'));
const db = await openDatabase(process.env['SWITCHYARD_CONFORMANCE_DB'] ?? `sqlite:${join(dir, 'client.db')}`, { leafWorker: false });
const config = configFor();
const oauth = new UpstreamOAuthClients([{ name: NAME, url, oauth: config }], new KnexUpstreamCredentialStore(db.knex), new CredentialSealer([{ kid: 'k1', secret: randomBytes(32).toString('base64') }]), {
  connectUrl: 'http://127.0.0.1:8080/dashboard/upstreams',
});
const client = new McpUpstreamClient({ oauth, connectTimeoutMs: 10_000 });
// The auth scenarios sign in; the others (tools_call, request-metadata) are a plain upstream.
const upstream: UpstreamAddress = { url, transport: 'streamable-http', ...(scenario.startsWith('auth/') ? { oauth: NAME } : {}) };

/** What the owner does in the dashboard: Connect, consent at the authorization server, back to the callback. */
async function ownerConnects(): Promise<void> {
  const state = randomBytes(32).toString('base64url');
  const authorizationUrl = await oauth.begin(NAME, REDIRECT_URI, state);
  const answer = await fetch(authorizationUrl, { redirect: 'manual' });
  const location = answer.headers.get('location');
  if (!location) throw new Error(`the authorization server did not redirect back (${answer.status})`);
  const back = new URL(location);
  // As the dashboard's callback does: the answer's iss (RFC 9207) goes with its code, null when absent.
  await oauth.complete(NAME, back.searchParams.get('state') ?? '', back.searchParams.get('code') ?? '', back.searchParams.get('iss'));
}

/** Runs `step`; when the upstream needs the owner's consent (first use, or a wider scope), the owner connects and it runs again, at most `tries` times. */
async function withConsent<T>(step: () => Promise<T>, tries = 3): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return await step();
    } catch (err) {
      if (!SwitchyardError.is(err, 'upstream_auth_required') || config.grant !== 'authorization_code' || i >= tries) throw err;
      await ownerConnects();
    }
  }
}

/** A form as a person accepts it: every field that has a default keeps it (SEP-1034), the required rest from the schema's example. */
function formAsFilled(schema: Record<string, unknown>): Record<string, unknown> {
  const properties = (schema['properties'] ?? {}) as Record<string, { default?: unknown }>;
  const defaults = Object.entries(properties).filter(([, field]) => field?.default !== undefined).map(([name, field]) => [name, field.default]);
  return { ...exampleFor(schema), ...Object.fromEntries(defaults) };
}

/**
 * The caller of each call, as a person at an MCP client would be: it accepts an elicitation with the
 * example of the schema asked for, answers a sampling request, and has no roots. The upstream
 * client bridges the upstream's questions to it (in either era), as it does for a real caller.
 */
const caller: CallerChannel = {
  elicit: async (params) => ({ action: 'accept', content: formAsFilled((params['requestedSchema'] ?? { type: 'object' }) as Record<string, unknown>) }),
  sample: async () => ({ role: 'assistant', content: { type: 'text', text: 'an answer from the caller' }, model: 'conformance-caller' }),
  listRoots: async () => ({ roots: [] }),
};

let exit = 0;
try {
  const tools = await withConsent(() => client.listTools(upstream, { timeoutMs: 10_000 }));
  // The scenario may say which calls to make (toolCalls in its context); else each tool once, with
  // the arguments a caller would start from: the example Switchyard builds from the tool's schema.
  const calls = context.toolCalls ?? tools.map((tool) => ({ name: tool.name, arguments: exampleFor(inputSchemaOf(tool)) }));
  for (const call of calls) {
    await withConsent(() => client.callTool(upstream, call.name, call.arguments ?? {}, { timeoutMs: 10_000, channel: caller }));
  }
} catch (err) {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  exit = 1;
} finally {
  await client.close();
  await db.close();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(exit);
