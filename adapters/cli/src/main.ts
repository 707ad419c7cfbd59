// The switchyard command. Server URL and API key come from --url/--key or SWITCHYARD_URL and
// SWITCHYARD_API_KEY. Exit codes: 0 ok, 1 the server refused or could not be reached, 2 usage.
import { parseArgs } from 'node:util';
import { CliError, SwitchyardClient } from './client.js';
import { hookCommand } from './commands/hook.js';
import { allowCommand, deadCommand, destinationsCommand, retryCommand, type DestinationOptions } from './commands/destinations.js';
import { verifyCommand } from './commands/verify.js';
import { listenCommand } from './commands/listen.js';
import { tokenCommand } from './commands/token.js';
import { upstreamCommand } from './commands/upstream.js';
import { toolCommand } from './commands/tool.js';
import { pluginCommand } from './commands/plugin.js';
import { ledgerCommand } from './commands/ledger.js';

const USAGE = `usage: switchyard [--url URL] [--key KEY] [--json] <command>

commands:
  hook list                              webhooks with their addresses
  hook create <name> [--id-path PATH] [--event-type-path PATH] [--retention-days DAYS]
                                         a new webhook (PATH: a body path like data.id, or header:<name>)
  hook on <id> | hook off <id>           accept or refuse deliveries
  hook deliveries [<id>] [--limit N] [--event-type T] [--follow]
                                         deliveries, newest first (--follow: keep printing new ones)
  hook event-types [<id>]                how many deliveries name each event type
  hook show <entry>                      one delivery: headers and body
  hook destinations <hook>               where its deliveries are forwarded
  hook destinations <hook> add <url> [--name N] [--filter EXPR] [--transform JSONATA] [--ordered] [--max-attempts N] [--initial-ms MS]
                                         forward to a URL (prints the signing secret once)
  hook destinations <hook> on|off|delete <dst>
  hook destinations <hook> rotate-secret <dst> [--grace-s S]   a new signing secret; the old one signs too for S seconds (86400)
  hook dead <hook> <dst> [--limit N]     a destination's dead letters
  hook retry <hook> <dst> (--dead | --from TIME --to TIME | --entries dlv_a,dlv_b)
  hook allow [<host>|<host:port>]        list, or admit a destination host on an internal address (kept in the database)
  hook disallow <host>|<host:port>       take a run-time entry away
  listen <hook> --forward <url> [--after POSITION]
                                         local development: replay each new delivery to a local
                                         URL with its headers and bytes, one line each (Ctrl-C stops)
                                         re-forward dead letters
  verify <receipt.json | proof | id>     check a receipt, confirmation or .tlog-proof offline (id: inv_, dlv_ or tdp_)
                                         against the pinned verifier key (an id: its public
                                         confirmation is fetched first)
  verify --consistency OLDER NEWER       two saved signed checkpoints: the log only grew
  verify … --witness VKEY [--witness VKEY …] [--witnesses-needed K]
                                         also require K of these witnesses' cosignatures on the
                                         checkpoint (default: all of them)
  ledger erase <inv_… | dlv_…> --reason TEXT
                                         erase an entry's private payload; its leaf and every
                                         proof stay valid, the erasure is logged (docs/proofs.md)
  upstream list                          imported MCP servers: status, tool count, last refresh
  upstream refresh <name>                import a server's tools again (added, removed and held keys)
  tool held                              imported tools held for review (changed, new or removed)
  tool changes <KEY>                     what changed: pinned and listed hash, a diff by JSON Pointer
  tool approve <KEY> <sha256:…>          pin the listed definition (a ledger entry) and serve it
  token narrow <TOKEN> [--keys A,B] [--moves m1,m2] [--expires-in S] [--uses N] [--actor T] [--purpose T]
                                         add caveats to a share token offline (it can only do less)
  plugin new <dir> --system <SYSTEM> [--name NAME] [--package NAME] [--kit SPEC] [--no-simulator]
                                         write a plugin package: manifest, runner, simulator,
                                         contract test, README (then: npm install && npm test)

environment: SWITCHYARD_URL (default http://127.0.0.1:8080), SWITCHYARD_API_KEY,
             SWITCHYARD_VERIFIER_KEY (or --verifier-key: the log's key to pin)`;

export async function main(argv: string[], env: NodeJS.ProcessEnv, io = { out: (t: string) => console.log(t), err: (t: string) => console.error(t) }): Promise<number> {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        url: { type: 'string' },
        key: { type: 'string' },
        json: { type: 'boolean', default: false },
        limit: { type: 'string' },
        follow: { type: 'boolean', default: false },
        'id-path': { type: 'string' },
        'event-type-path': { type: 'string' },
        'retention-days': { type: 'string' },
        'event-type': { type: 'string' },
        interval: { type: 'string' },
        'verifier-key': { type: 'string' },
        consistency: { type: 'boolean', default: false },
        witness: { type: 'string', multiple: true },
        'witnesses-needed': { type: 'string' },
        keys: { type: 'string' },
        moves: { type: 'string' },
        'expires-in': { type: 'string' },
        uses: { type: 'string' },
        actor: { type: 'string' },
        purpose: { type: 'string' },
        system: { type: 'string' },
        name: { type: 'string' },
        package: { type: 'string' },
        kit: { type: 'string' },
        'no-simulator': { type: 'boolean', default: false },
        filter: { type: 'string' },
        transform: { type: 'string' },
        ordered: { type: 'boolean', default: false },
        'max-attempts': { type: 'string' },
        'initial-ms': { type: 'string' },
        'grace-s': { type: 'string' },
        dead: { type: 'boolean', default: false },
        from: { type: 'string' },
        to: { type: 'string' },
        entries: { type: 'string' },
        reason: { type: 'string' },
        forward: { type: 'string' },
        after: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
    if (values.help || positionals.length === 0) {
      io.out(USAGE);
      return values.help ? 0 : 2;
    }
    const limit = values.limit === undefined ? undefined : Number(values.limit);
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > 1000)) throw new CliError('invalid_request', '--limit must be an integer from 1 to 1000', 2);
    const client = new SwitchyardClient({ url: values.url ?? env['SWITCHYARD_URL'] ?? 'http://127.0.0.1:8080', apiKey: values.key ?? env['SWITCHYARD_API_KEY'] });
    const [group, ...rest] = positionals;
    if (group === 'token') {
      tokenCommand(rest, { json: values.json, ...(values.keys ? { keys: values.keys } : {}), ...(values.moves ? { moves: values.moves } : {}), ...(values['expires-in'] ? { expiresIn: values['expires-in'] } : {}), ...(values.uses ? { uses: values.uses } : {}), ...(values.actor ? { actor: values.actor } : {}), ...(values.purpose ? { purpose: values.purpose } : {}) }, io);
      return 0;
    }
    if (group === 'plugin') {
      pluginCommand(rest, { simulator: !values['no-simulator'], ...(values.system ? { system: values.system } : {}), ...(values.name ? { name: values.name } : {}), ...(values.package ? { package: values.package } : {}), ...(values.kit ? { kit: values.kit } : {}) }, io);
      return 0;
    }
    if (group === 'verify') {
      await verifyCommand(client, rest, { verifierKey: values['verifier-key'] ?? env['SWITCHYARD_VERIFIER_KEY'], json: values.json, consistency: values.consistency, ...(values.witness ? { witnesses: values.witness } : {}), ...(values['witnesses-needed'] !== undefined ? { witnessesNeeded: values['witnesses-needed'] } : {}) }, io);
      return 0;
    }
    if (group === 'ledger') {
      await ledgerCommand(client, rest, { json: values.json, ...(values.reason !== undefined ? { reason: values.reason } : {}) }, io);
      return 0;
    }
    if (group === 'listen') {
      const stop = new AbortController();
      const quit = () => stop.abort();
      process.once('SIGINT', quit);
      process.once('SIGTERM', quit);
      try {
        await listenCommand(client, rest, { apiKey: values.key ?? env['SWITCHYARD_API_KEY'], signal: stop.signal, ...(values.forward ? { forward: values.forward } : {}), ...(values.after ? { after: values.after } : {}) }, io);
      } finally {
        process.off('SIGINT', quit);
        process.off('SIGTERM', quit);
      }
      return 0;
    }
    if (group === 'upstream') {
      await upstreamCommand(client, rest, { json: values.json }, io);
      return 0;
    }
    if (group === 'tool') {
      await toolCommand(client, rest, { json: values.json }, io);
      return 0;
    }
    if (group !== 'hook') throw new CliError('invalid_request', `unknown command ${group}\n\n${USAGE}`, 2);
    const forwarding = {
      destinations: destinationsCommand,
      dead: deadCommand,
      retry: retryCommand,
      allow: (c: SwitchyardClient, a: string[], o: DestinationOptions, i: typeof io) => allowCommand(c, a, o, i, 'allow'),
      disallow: (c: SwitchyardClient, a: string[], o: DestinationOptions, i: typeof io) => allowCommand(c, a, o, i, 'disallow'),
    }[rest[0] as string];
    if (forwarding) {
      const int = (v: string | undefined, flag: string) => {
        if (v === undefined) return undefined;
        if (!/^\d+$/.test(v)) throw new CliError('invalid_request', `${flag} must be a whole number`, 2);
        return Number(v);
      };
      const options: DestinationOptions = {
        json: values.json,
        ordered: values.ordered,
        dead: values.dead,
        ...(values.name ? { name: values.name } : {}),
        ...(values.filter ? { filter: values.filter } : {}),
        ...(values.transform ? { transform: values.transform } : {}),
        ...(values['max-attempts'] !== undefined ? { maxAttempts: int(values['max-attempts'], '--max-attempts')! } : {}),
        ...(values['initial-ms'] !== undefined ? { initialMs: int(values['initial-ms'], '--initial-ms')! } : {}),
        ...(values['grace-s'] !== undefined ? { graceS: int(values['grace-s'], '--grace-s')! } : {}),
        ...(values.from ? { from: values.from } : {}),
        ...(values.to ? { to: values.to } : {}),
        ...(values.entries ? { entries: values.entries } : {}),
        ...(limit !== undefined ? { limit } : {}),
      };
      await forwarding(client, rest.slice(1), options, io);
      return 0;
    }
    await hookCommand(
      client,
      rest,
      { json: values.json, follow: values.follow, intervalMs: Number(values.interval ?? 1000), ...(limit !== undefined ? { limit } : {}), ...(values['id-path'] ? { idPath: values['id-path'] } : {}), ...(values['event-type-path'] ? { eventTypePath: values['event-type-path'] } : {}), ...(values['retention-days'] !== undefined ? { retentionDays: values['retention-days'] } : {}), ...(values['event-type'] !== undefined ? { eventType: values['event-type'] } : {}) },
      io,
    );
    return 0;
  } catch (err) {
    if (err instanceof CliError) {
      io.err(`switchyard: ${err.code}: ${err.message}`);
      return err.exitCode;
    }
    if ((err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(`switchyard: ${(err as Error).message}\n\n${USAGE}`);
      return 2;
    }
    throw err;
  }
}

if (process.argv[1] && /main\.(ts|js)$/.test(process.argv[1])) {
  process.exitCode = await main(process.argv.slice(2), process.env);
}
