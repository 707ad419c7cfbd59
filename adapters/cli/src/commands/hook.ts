// `switchyard hook …`: list, create, on/off, deliveries (with --follow and --event-type), event-types, show.
import { counted } from '@switchyard/core';
import type { SwitchyardClient } from '../client.js';
import { CliError } from '../client.js';
import { table } from '../table.js';

interface WebhookView {
  id: string;
  name: string;
  on: boolean;
  address: string;
  delivery_id_path: string | null;
  created_at: string;
}

export interface DeliveryView {
  id: string;
  seq: number;
  hook_id: string;
  received_at: string;
  method: string;
  path: string;
  query: string;
  client_address: string | null;
  headers: Array<[string, string]>;
  body: string | null;
  body_encoding: 'utf8' | 'base64' | null;
  body_size: number;
  /** True when the listing left the body out (over the server's inline threshold). */
  body_omitted: boolean;
  body_sha256: string | null;
  /** Streams the raw body with its original content type (API key). */
  body_url: string | null;
  delivery_id: string | null;
  delivery_id_rule: string | null;
  /** What happened, as the sender names it; null when it names nothing. */
  event_type: string | null;
  event_type_rule: string | null;
  duplicate: boolean;
  duplicate_of: string | null;
  /** accepted, duplicate or refused (one vocabulary everywhere). */
  outcome: string;
  refusal: { code: string; message: string; body_truncated?: boolean; declared_size?: number | null } | null;
  action: string | null;
  action_run: { invocation: string; ok: boolean; status: string } | null;
  /** The signature check's verdict, null when the webhook checks none. */
  signature: 'verified' | 'invalid' | 'missing' | null;
}

export interface Output {
  out(text: string): void;
}

const HOOK_ID = /^hk_[A-Za-z0-9]{12}$/;
const requireHookId = (id: string | undefined): string => {
  if (!id || !HOOK_ID.test(id)) throw new CliError('invalid_request', `expected a webhook id (hk_ + 12 letters and digits), got ${id ?? 'nothing'}`, 2);
  return id;
};

const webhookRows = (hooks: WebhookView[]) => table(['ID', 'NAME', 'ON', 'ADDRESS'], hooks.map((h) => [h.id, h.name, h.on ? 'On' : 'Off', h.address]));

const DELIVERY_COLUMNS = ['ENTRY', 'RECEIVED', 'HOOK', 'EVENT TYPE', 'DELIVERY ID', 'DUPLICATE', 'OUTCOME', 'SIGNATURE', 'BYTES', 'ACTION'];
const deliveryCells = (d: DeliveryView) => [
  d.id,
  d.received_at,
  d.hook_id,
  d.event_type,
  d.delivery_id,
  d.duplicate ? `yes (${d.duplicate_of})` : 'no',
  d.refusal ? `refused: ${d.refusal.code}` : d.outcome,
  d.signature,
  d.body_size,
  d.action ? `${d.action}${d.action_run ? ` → ${d.action_run.status}` : ''}` : null,
];
const deliveryRows = (items: DeliveryView[]) => table(DELIVERY_COLUMNS, items.map(deliveryCells));
/**
 * Widths for --follow, whose rows are printed one at a time: entry ids, times and hook ids have
 * fixed lengths; an event type has room for most (invoice.payment_succeeded), a delivery id for a
 * UUID, the duplicate mark for `yes (<entry>)`, the outcome for the longest refusal. A longer value
 * pushes its row's later columns right.
 */
const FOLLOW_WIDTHS = [24, 24, 15, 26, 36, 30, 32, 9, 8];
const followLine = (cells: Array<string | number | null>) => cells.map((c, i) => (i < FOLLOW_WIDTHS.length ? String(c ?? '-').padEnd(FOLLOW_WIDTHS[i]!) : String(c ?? '-'))).join('  ');

export interface HookOptions {
  json: boolean;
  limit?: number;
  follow: boolean;
  idPath?: string;
  eventTypePath?: string;
  /** The webhook's retention_private_days (the server checks it; not a number is sent as given, and refused). */
  retentionDays?: string;
  /** Only deliveries of this event type. */
  eventType?: string;
  intervalMs: number;
  signal?: AbortSignal;
}

export async function hookCommand(client: SwitchyardClient, args: string[], options: HookOptions, io: Output): Promise<void> {
  const [sub, ...rest] = args;
  const print = (value: unknown, text: () => string) => io.out(options.json ? JSON.stringify(value, null, 2) : text());
  switch (sub) {
    case 'list': {
      const { items } = await client.request<{ items: WebhookView[] }>('GET', '/api/objects/webhook');
      return print(items, () => (items.length ? webhookRows(items) : 'no webhooks yet: switchyard hook create <name>'));
    }
    case 'create': {
      const name = rest.join(' ').trim();
      if (!name) throw new CliError('invalid_request', 'usage: switchyard hook create <name> [--id-path <path>] [--event-type-path <path>] [--retention-days <days>]', 2);
      const hook = await client.request<WebhookView>('POST', '/api/objects/webhook', {
        name,
        ...(options.idPath ? { delivery_id_path: options.idPath } : {}),
        ...(options.eventTypePath ? { event_type_path: options.eventTypePath } : {}),
        ...(options.retentionDays !== undefined ? { retention_private_days: options.retentionDays.trim() !== '' && Number.isFinite(Number(options.retentionDays)) ? Number(options.retentionDays) : options.retentionDays } : {}),
      });
      return print(hook, () => `created ${hook.id} (${hook.name})\naddress: ${hook.address}`);
    }
    case 'on':
    case 'off': {
      const id = requireHookId(rest[0]);
      const hook = await client.request<WebhookView>('PATCH', `/api/objects/webhook/${id}`, { on: sub === 'on' });
      return print(hook, () => `${hook.id} (${hook.name}) is ${hook.on ? 'On' : 'Off'}`);
    }
    case 'deliveries':
      return deliveries(client, rest[0] === undefined ? undefined : requireHookId(rest[0]), options, io);
    case 'event-types': {
      const id = rest[0] === undefined ? undefined : requireHookId(rest[0]);
      const counts = await client.request<{ items: Array<{ event_type: string | null; count: number }>; more: boolean }>('GET', `/api/ledger/event-types${id ? `?hook=${id}` : ''}`);
      return print(counts, () =>
        counts.items.length === 0
          ? 'no deliveries yet'
          : `${table(['EVENT TYPE', 'DELIVERIES'], counts.items.map((c) => [c.event_type ?? '(none)', c.count]))}${counts.more ? `\n(the ${counts.items.length} most frequent)` : ''}`,
      );
    }
    case 'show': {
      const entry = rest[0];
      if (!entry) throw new CliError('invalid_request', 'usage: switchyard hook show <entry>', 2);
      const { entry: d } = await client.request<{ entry: DeliveryView }>('GET', `/api/ledger/${encodeURIComponent(entry)}`);
      return print(d, () => showDelivery(d));
    }
    default:
      throw new CliError('invalid_request', `${sub === undefined ? 'hook needs a command' : `unknown hook command ${sub}`}; try: list, create, on, off, deliveries, event-types, show, destinations, dead, retry`, 2);
  }
}

export function showDelivery(d: DeliveryView): string {
  const lines = [
    `entry        ${d.id}`,
    `hook         ${d.hook_id}`,
    `received     ${d.received_at} from ${d.client_address ?? '?'}`,
    `request      ${d.method} ${d.path}${d.query ? `?${d.query}` : ''}`,
    `delivery id  ${d.delivery_id ?? '-'}${d.delivery_id_rule ? ` (${d.delivery_id_rule})` : ''}`,
    `event type   ${d.event_type ?? '-'}${d.event_type_rule ? ` (${d.event_type_rule})` : ''}`,
    `duplicate    ${d.duplicate ? `yes, of ${d.duplicate_of}` : 'no'}`,
    `outcome      ${d.refusal ? `refused: ${d.refusal.code}: ${d.refusal.message}` : d.outcome}`,
    `signature    ${d.signature ?? '- (not checked)'}`,
  ];
  if (d.action) lines.push(`action       ${d.action}${d.action_run ? ` → ${d.action_run.status} (${d.action_run.invocation})` : ''}`);
  lines.push('', 'headers');
  for (const [name, value] of d.headers) lines.push(`  ${name}: ${value}`);
  const kept = d.refusal?.body_truncated ? `, only its first bytes kept; ${d.refusal.declared_size ?? 'no'} declared` : '';
  lines.push('', `body (${counted(d.body_size, 'byte')}${kept}${d.body_encoding === 'base64' ? ', binary, shown as base64' : ''}${d.body_sha256 ? `, sha256 ${d.body_sha256}` : ''})`);
  if (d.body_url) lines.push(`raw          ${d.body_url}`);
  lines.push(d.body_omitted ? '(left out: too large to list; the raw URL streams it)' : (d.body ?? '(not stored)'));
  return lines.join('\n');
}

interface DeliveryPage {
  items: DeliveryView[];
  next_cursor: string | null;
}

/**
 * Follows the listing's cursor until `limit` items or the end: the server ends a page early when
 * the next item would pass its byte budget, so one page may hold fewer than asked for.
 */
async function collect(client: SwitchyardClient, path: (query: string) => string, first: string, cursorParam: 'before' | 'after', limit: number): Promise<DeliveryView[]> {
  const items: DeliveryView[] = [];
  let query = first;
  for (;;) {
    const page = await client.request<DeliveryPage>('GET', path(`${query}&limit=${limit - items.length}`));
    items.push(...page.items);
    if (page.next_cursor === null || items.length >= limit) return items;
    query = `${cursorParam}=${page.next_cursor}`;
  }
}

async function deliveries(client: SwitchyardClient, hookId: string | undefined, options: HookOptions, io: Output): Promise<void> {
  const only = `${hookId ? `&hook=${hookId}` : ''}${options.eventType !== undefined ? `&event_type=${encodeURIComponent(options.eventType)}` : ''}`;
  const path = (query: string) => `/api/ledger?event=webhook%20delivery&${query}${only}`;
  const items = await collect(client, path, 'order=newest', 'before', options.limit ?? 20);
  if (!options.follow) {
    return io.out(options.json ? JSON.stringify(items, null, 2) : items.length ? deliveryRows(items) : 'no deliveries yet');
  }
  // Follow: show the latest, then read on in append order from the newest seen, one per line.
  const line = (d: DeliveryView) => (options.json ? JSON.stringify(d) : followLine(deliveryCells(d)));
  if (!options.json) io.out(followLine(DELIVERY_COLUMNS));
  let seen = 0;
  for (const d of [...items].reverse()) {
    io.out(line(d));
    seen = Math.max(seen, d.seq);
  }
  while (!options.signal?.aborted) {
    await new Promise((r) => setTimeout(r, options.intervalMs));
    for (let more = true; more && !options.signal?.aborted; ) {
      const page = await client.request<DeliveryPage>('GET', path(`${seen > 0 ? `after=${seen}` : 'order=append'}&limit=1000`));
      for (const d of page.items) {
        io.out(line(d));
        seen = Math.max(seen, d.seq);
      }
      more = page.next_cursor !== null;
    }
  }
}
