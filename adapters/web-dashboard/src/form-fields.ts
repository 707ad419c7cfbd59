// A dashboard form's fields as the JSON the API takes: the same checks in core then judge them, so
// a form refuses what the API refuses, with the same message, and stores nothing.
import { SwitchyardError, type Destination, type Webhook } from '@switchyard/core';

type Form = Record<string, unknown>;

const text = (form: Form, name: string): string => (typeof form[name] === 'string' ? (form[name] as string) : '');

/** A whole number as a number; anything else as typed, for core to refuse naming the field. */
const whole = (value: string): number | string => (/^\d{1,15}$/.test(value.trim()) ? Number(value.trim()) : value);

/** "all", "none", or header names separated by commas or spaces. */
const forwardHeaders = (value: string): string | string[] => {
  const v = value.trim();
  return v === 'all' || v === 'none' ? v : v.split(/[\s,]+/).filter((n) => n.length > 0);
};

/** "Name: value", one a line, as the object the API takes; a line without a colon is refused, naming it. */
const extraHeaders = (value: string): Record<string, string> => {
  const out: Record<string, string> = {};
  value.split(/\r?\n/).forEach((line, n) => {
    if (line.trim() === '') return;
    const colon = line.indexOf(':');
    if (colon <= 0) throw new SwitchyardError('invalid_request', `headers: line ${n + 1} is not "Name: value"`, { field: 'headers' });
    out[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  });
  return out;
};

/** A destination form: every field it shows; an empty filter or transform is none (null), when changing. */
export function destinationPayload(form: Form, creating: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = { url: text(form, 'url').trim() };
  const name = text(form, 'name').trim();
  // Empty: on creation the URL's host, when changing the name it has.
  if (name !== '') out['name'] = name;
  const retry: Record<string, unknown> = {};
  if (text(form, 'max_attempts').trim() !== '') retry['max_attempts'] = whole(text(form, 'max_attempts'));
  if (text(form, 'initial_ms').trim() !== '') retry['initial_ms'] = whole(text(form, 'initial_ms'));
  if (Object.keys(retry).length > 0) out['retry'] = retry;
  for (const field of ['filter', 'transform'] as const) {
    const v = text(form, field);
    if (v.trim() !== '') out[field] = v;
    else if (!creating) out[field] = null;
  }
  if (text(form, 'forward_headers').trim() !== '') out['forward_headers'] = forwardHeaders(text(form, 'forward_headers'));
  // Headers sent with every attempt: empty is none (when changing, the ones it had are taken away).
  const headers = extraHeaders(text(form, 'headers'));
  if (Object.keys(headers).length > 0 || !creating) out['headers'] = headers;
  return out;
}

/** A webhook form: its name and signature check (no scheme: none; an empty secret keeps the one it has). */
export function webhookPayload(form: Form, current: Webhook | null): Record<string, unknown> {
  const out: Record<string, unknown> = { name: text(form, 'name') };
  const scheme = text(form, 'signature_scheme');
  if (scheme === '') {
    if (current?.signature) out['signature'] = null;
    return out;
  }
  const secret = text(form, 'signature_secret');
  const kept = secret === '' && current?.signature?.scheme === scheme ? current.signature.secret : secret;
  out['signature'] = { scheme, secret: kept, require: form['signature_require'] === 'on' };
  return out;
}

/** The form's values shown again after a refusal, so nothing typed is lost. */
export type DestinationFormValues = Partial<Record<'name' | 'url' | 'max_attempts' | 'initial_ms' | 'filter' | 'transform' | 'forward_headers' | 'headers', string>>;

export const formValues = (form: Form): DestinationFormValues =>
  Object.fromEntries(['name', 'url', 'max_attempts', 'initial_ms', 'filter', 'transform', 'forward_headers', 'headers'].map((k) => [k, text(form, k)]));

export const destinationValues = (d: Destination): DestinationFormValues => ({
  name: d.name,
  url: d.url,
  max_attempts: String(d.retry.max_attempts),
  initial_ms: String(d.retry.initial_ms),
  filter: d.filter ?? '',
  transform: d.transform ?? '',
  forward_headers: Array.isArray(d.forward_headers) ? d.forward_headers.join(', ') : d.forward_headers,
  headers: Object.entries(d.headers ?? {}).map(([name, value]) => `${name}: ${value}`).join('\n'),
});
