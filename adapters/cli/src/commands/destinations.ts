// `switchyard hook destinations …`, `hook dead …` and `hook retry …`: where a webhook forwards to,
// its dead letters, and re-forwarding them.
import type { SwitchyardClient } from '../client.js';
import { CliError } from '../client.js';
import { table } from '../table.js';
import type { Output } from './hook.js';

interface DestinationView {
  id: string;
  name: string;
  url: string;
  on: boolean;
  ordered: boolean;
  filter: string | null;
  transform: string | null;
  rate_per_s: number | null;
  retry: { max_attempts: number; initial_ms: number; max_ms: number };
  /** In the process that answered. */
  circuit: { state: 'closed' | 'open' | 'probing'; until: string | null };
  secret?: string;
  previous_secret_until: string | null;
}

interface DeadView {
  entry: string;
  attempts: number;
  last_status: number | null;
  invocations: string[];
}

export interface DestinationOptions {
  json: boolean;
  name?: string;
  filter?: string;
  transform?: string;
  ordered: boolean;
  maxAttempts?: number;
  initialMs?: number;
  graceS?: number;
  dead: boolean;
  from?: string;
  to?: string;
  entries?: string;
  limit?: number;
}

const HOOK_ID = /^hk_[A-Za-z0-9]{12}$/;
const DST_ID = /^dst_[A-Za-z0-9]{16}$/;
const need = (value: string | undefined, pattern: RegExp, what: string, usage: string): string => {
  if (!value || !pattern.test(value)) throw new CliError('invalid_request', `expected ${what}, got ${value ?? 'nothing'}\nusage: ${usage}`, 2);
  return value;
};

const DESTINATIONS_USAGE = 'switchyard hook destinations <hook> [add <url> [--name N] [--filter EXPR] [--transform JSONATA] [--ordered] [--max-attempts N] [--initial-ms MS] | on <dst> | off <dst> | delete <dst> | rotate-secret <dst> [--grace-s S]]';
const rows = (items: DestinationView[]) =>
  table(['ID', 'NAME', 'ON', 'URL', 'CIRCUIT', 'ORDERED', 'RETRY', 'FILTER', 'TRANSFORM'], items.map((d) => [d.id, d.name, d.on ? 'On' : 'Off', d.url, d.circuit.state === 'open' ? `open until ${d.circuit.until}` : d.circuit.state, d.ordered ? 'yes' : 'no', `${d.retry.max_attempts} × from ${d.retry.initial_ms} ms`, d.filter, d.transform]));

export async function destinationsCommand(client: SwitchyardClient, args: string[], options: DestinationOptions, io: Output): Promise<void> {
  const hook = need(args[0], HOOK_ID, 'a webhook id (hk_…)', DESTINATIONS_USAGE);
  const base = `/api/objects/webhook/${hook}/destinations`;
  const print = (value: unknown, text: () => string) => io.out(options.json ? JSON.stringify(value, null, 2) : text());
  const [verb, target] = args.slice(1);
  if (verb === undefined) {
    const { items } = await client.request<{ items: DestinationView[] }>('GET', base);
    return print(items, () => (items.length ? rows(items) : `no destinations yet: switchyard hook destinations ${hook} add <url>`));
  }
  if (verb === 'add') {
    if (!target) throw new CliError('invalid_request', `usage: ${DESTINATIONS_USAGE}`, 2);
    const retry = { ...(options.maxAttempts !== undefined ? { max_attempts: options.maxAttempts } : {}), ...(options.initialMs !== undefined ? { initial_ms: options.initialMs } : {}) };
    const created = await client.request<DestinationView>('POST', base, {
      url: target,
      ...(options.name ? { name: options.name } : {}),
      ...(options.filter ? { filter: options.filter } : {}),
      ...(options.transform ? { transform: options.transform } : {}),
      ...(options.ordered ? { ordered: true } : {}),
      ...(Object.keys(retry).length ? { retry } : {}),
    });
    return print(created, () => `created ${created.id} → ${created.url}\nsecret: ${created.secret} (shown once: verify deliveries with it)`);
  }
  const dst = need(target, DST_ID, 'a destination id (dst_…)', DESTINATIONS_USAGE);
  if (verb === 'on' || verb === 'off') {
    const changed = await client.request<DestinationView>('PATCH', `${base}/${dst}`, { on: verb === 'on' });
    return print(changed, () => `${changed.id} (${changed.name}) is ${changed.on ? 'On' : 'Off'}`);
  }
  if (verb === 'rotate-secret') {
    const rotated = await client.request<DestinationView>('POST', `${base}/${dst}/rotate-secret`, options.graceS !== undefined ? { grace_s: options.graceS } : {});
    const grace = rotated.previous_secret_until ? `attempts are signed with the old secret too until ${rotated.previous_secret_until}` : 'the old secret signs nothing more';
    return print(rotated, () => `${rotated.id} has a new secret: ${rotated.secret} (shown once)\n${grace}`);
  }
  if (verb === 'delete') {
    const removed = await client.request<DestinationView>('DELETE', `${base}/${dst}`);
    return print(removed, () => `${removed.id} deleted: it gets nothing more; its history stays`);
  }
  throw new CliError('invalid_request', `unknown destinations command ${verb}; usage: ${DESTINATIONS_USAGE}`, 2);
}

export async function deadCommand(client: SwitchyardClient, args: string[], options: DestinationOptions, io: Output): Promise<void> {
  const usage = 'switchyard hook dead <hook> <dst> [--limit N]';
  const hook = need(args[0], HOOK_ID, 'a webhook id (hk_…)', usage);
  const dst = need(args[1], DST_ID, 'a destination id (dst_…)', usage);
  const page = await client.request<{ items: DeadView[]; next_cursor: string | null }>('GET', `/api/objects/webhook/${hook}/destinations/${dst}/dead?limit=${Math.min(options.limit ?? 50, 200)}`);
  io.out(options.json ? JSON.stringify(page.items, null, 2) : page.items.length ? table(['ENTRY', 'ATTEMPTS', 'LAST STATUS', 'LAST ATTEMPT'], page.items.map((d) => [d.entry, d.attempts, d.last_status, d.invocations[d.invocations.length - 1] ?? null])) : 'no dead letters');
}

export async function retryCommand(client: SwitchyardClient, args: string[], options: DestinationOptions, io: Output): Promise<void> {
  const usage = 'switchyard hook retry <hook> <dst> (--dead | --from TIME --to TIME | --entries dlv_a,dlv_b)';
  const hook = need(args[0], HOOK_ID, 'a webhook id (hk_…)', usage);
  const dst = need(args[1], DST_ID, 'a destination id (dst_…)', usage);
  const selector = options.dead ? { state: 'dead' } : options.entries ? { entries: options.entries.split(',').map((e) => e.trim()) } : options.from && options.to ? { from: options.from, to: options.to } : null;
  if (!selector) throw new CliError('invalid_request', `say which dead letters; usage: ${usage}`, 2);
  const answer = await client.request<{ requeued: number }>('POST', `/api/objects/webhook/${hook}/destinations/${dst}/retry`, selector);
  io.out(options.json ? JSON.stringify(answer, null, 2) : `${answer.requeued} dead ${answer.requeued === 1 ? 'letter' : 'letters'} re-forwarded`);
}

/** `switchyard hook allow [<host>]` and `hook disallow <host>`: the run-time allowlist of destinations on internal addresses. */
export async function allowCommand(client: SwitchyardClient, args: string[], options: DestinationOptions, io: Output, verb: 'allow' | 'disallow'): Promise<void> {
  const usage = 'switchyard hook allow [<host>|<host:port>] | hook disallow <host>|<host:port>';
  const host = args[0];
  if (verb === 'allow' && host === undefined) {
    const { items } = await client.request<{ items: Array<{ host: string; source: string; created_at: string | null }> }>('GET', '/api/forwarding/allow');
    return io.out(options.json ? JSON.stringify(items, null, 2) : items.length ? table(['HOST', 'FROM', 'ADDED'], items.map((i) => [i.host, i.source === 'config' ? 'configuration' : 'run time', i.created_at])) : 'no hosts allowlisted: destinations must resolve to public addresses');
  }
  if (!host || args.length > 1) throw new CliError('invalid_request', `usage: ${usage}`, 2);
  if (verb === 'allow') {
    const answer = await client.request<{ host: string; added: boolean }>('POST', '/api/forwarding/allow', { host });
    return io.out(options.json ? JSON.stringify(answer, null, 2) : answer.added ? `${answer.host} admitted for destinations (every process, within a second)` : `${answer.host} was already admitted`);
  }
  const answer = await client.request<{ host: string }>('DELETE', '/api/forwarding/allow', { host });
  io.out(options.json ? JSON.stringify(answer, null, 2) : `${answer.host} taken off the allowlist: attempts to it are refused again`);
}
