// A webhook's settings as a request sends them (API or dashboard form): checked here, once, so each
// face refuses the same bad input with the same coded message and stores nothing.
import { SwitchyardError } from '../errors.js';
import { DELIVERY_ID_PATH_PATTERN } from './delivery-id.js';
import { EVENT_TYPE_PATH_PATTERN } from './event-type.js';
import { MAX_TOLERANCE_SECONDS, SIGNATURE_SCHEMES, signatureProblem, type SignatureSettings } from './signatures/index.js';
import type { Webhook } from './webhook.js';

/** A webhook's own retention is at most 100 years: beyond that it is "keep", which null (and no global setting) says. */
export const MAX_RETENTION_DAYS = 36_500;

const FIELDS = new Set(['name', 'delivery_id_path', 'event_type_path', 'on', 'signature', 'retention_private_days']);
export type WebhookChanges = Partial<Pick<Webhook, 'name' | 'on' | 'delivery_id_path' | 'event_type_path' | 'signature' | 'retention_private_days'>>;

/** {scheme, secret, header?, require?, tolerance_s?} or null to remove it. */
function readSignature(value: unknown): SignatureSettings | null {
  if (value === null) return null;
  const bad = (why: string, field = 'signature') =>
    new SwitchyardError('invalid_request', `${field} ${why}; send {scheme, secret, header?, require?, tolerance_s?} or null`, { field, schemes: SIGNATURE_SCHEMES });
  if (typeof value !== 'object' || Array.isArray(value)) throw bad('must be an object');
  const v = value as Record<string, unknown>;
  const extra = Object.keys(v).filter((k) => !['scheme', 'secret', 'header', 'require', 'tolerance_s'].includes(k));
  if (extra.length > 0) throw bad(`has unknown field(s) ${extra.join(', ')}`);
  const problem = signatureProblem(v['scheme'], v['secret']);
  if (problem) throw bad(problem.field === 'signature.scheme' ? `must be one of ${SIGNATURE_SCHEMES.join(', ')}` : problem.problem, problem.field);
  if (v['header'] !== undefined && (typeof v['header'] !== 'string' || !/^[A-Za-z0-9-]{1,100}$/.test(v['header']))) throw bad('must be a header name', 'signature.header');
  if (v['require'] !== undefined && typeof v['require'] !== 'boolean') throw bad('must be true or false', 'signature.require');
  const tolerance = v['tolerance_s'];
  if (tolerance !== undefined && tolerance !== null && (typeof tolerance !== 'number' || !Number.isInteger(tolerance) || tolerance < 1 || tolerance > MAX_TOLERANCE_SECONDS)) {
    throw bad(`must be whole seconds from 1 to ${MAX_TOLERANCE_SECONDS}, or null for the sender's own window`, 'signature.tolerance_s');
  }
  return {
    scheme: v['scheme'] as SignatureSettings['scheme'],
    secret: v['secret'] as string,
    header: (v['header'] as string | undefined) ?? null,
    require: (v['require'] as boolean | undefined) ?? false,
    tolerance_s: (tolerance as number | null | undefined) ?? null,
  };
}

/** Checks a create (name required, no `on`) or a change (any of the fields). */
export function readWebhookChanges(payload: unknown, creating: boolean): WebhookChanges {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) throw new SwitchyardError('invalid_request', 'send a JSON object, e.g. {"name": "github"}');
  const p = payload as Record<string, unknown>;
  const extra = Object.keys(p).filter((k) => !FIELDS.has(k) || (creating && k === 'on'));
  if (extra.length > 0) throw new SwitchyardError('invalid_request', `unknown field(s) ${extra.join(', ')}`, { fields: extra });
  const out: WebhookChanges = {};
  if (p['name'] !== undefined || creating) {
    if (typeof p['name'] !== 'string' || p['name'].trim().length === 0 || p['name'].length > 200) throw new SwitchyardError('invalid_request', 'name must be a non-empty string of at most 200 characters');
    out.name = p['name'];
  }
  if (p['delivery_id_path'] !== undefined) {
    const path = p['delivery_id_path'];
    if (path !== null && (typeof path !== 'string' || !DELIVERY_ID_PATH_PATTERN.test(path))) {
      throw new SwitchyardError('invalid_request', 'delivery_id_path must be a body path like data.object.id, or header:<name>, or null');
    }
    out.delivery_id_path = path as string | null;
  }
  if (p['event_type_path'] !== undefined) {
    const path = p['event_type_path'];
    if (path !== null && (typeof path !== 'string' || !EVENT_TYPE_PATH_PATTERN.test(path))) {
      throw new SwitchyardError('invalid_request', 'event_type_path must be a body path like data.kind (a number indexes an array: 0.event), or header:<name>, or null', { field: 'event_type_path' });
    }
    out.event_type_path = path as string | null;
  }
  if (p['retention_private_days'] !== undefined) {
    const days = p['retention_private_days'];
    if (days !== null && (typeof days !== 'number' || !Number.isFinite(days) || days <= 0 || days > MAX_RETENTION_DAYS)) {
      throw new SwitchyardError('invalid_request', `retention_private_days must be a number of days above 0 and at most ${MAX_RETENTION_DAYS}, or null for retention.privateDays`, { field: 'retention_private_days' });
    }
    out.retention_private_days = days as number | null;
  }
  if (p['signature'] !== undefined) out.signature = readSignature(p['signature']);
  if (p['on'] !== undefined) {
    if (typeof p['on'] !== 'boolean') throw new SwitchyardError('invalid_request', 'on must be true or false');
    out.on = p['on'];
  }
  return out;
}

