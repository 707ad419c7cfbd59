// What the signature suites share: a payload with bytes beyond ASCII, its tampered twin, and a
// check of one scheme's verdict on a request.
import { verifySignature, type SignatureCheck, type SignatureScheme, type SignedRequest } from '@switchyard/core';

export const payload = '{"id":"evt_1","type":"invoice.paid","data":{"amount":1299,"note":"héllo ✓"}}';
export const body = new TextEncoder().encode(payload);
export const tampered = new TextEncoder().encode(payload.replace('1299', '1'));

export const request = (headers: Record<string, string>, bytes: Uint8Array = body, url: string | null = null, method = 'POST'): SignedRequest => ({
  method,
  url,
  headers: Object.entries(headers),
  body: bytes,
});

export const check = (scheme: SignatureScheme, secret: string, req: SignedRequest, now = new Date(), tolerance_s: number | null = null): SignatureCheck =>
  verifySignature({ scheme, secret, header: null, require: true, tolerance_s }, req, now);

export const verdictOf = (scheme: SignatureScheme, secret: string, req: SignedRequest, now = new Date(), tolerance_s: number | null = null): string => check(scheme, secret, req, now, tolerance_s).verdict;

export const seconds = (date: Date): string => String(Math.floor(date.getTime() / 1000));
export const minutesFrom = (date: Date, minutes: number): Date => new Date(date.getTime() + minutes * 60_000);
