// What the OAuth suites share: PKCE pairs, a signed-in dashboard cookie, registering a client and
// walking a request through consent with supertest, as a browser would.
import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'chai';
import type request from 'supertest';
import { tokenFingerprint } from '@switchyard/core';
import { TEST_API_KEY } from './app.js';

export const REDIRECT = 'http://127.0.0.1:9/callback';

export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** The dashboard session cookie, from signing in with the API key. */
export async function signIn(http: ReturnType<typeof request>): Promise<string> {
  const res = await http.post('/dashboard/login').type('form').send({ api_key: TEST_API_KEY, next: '/dashboard' }).expect(303);
  return String(res.headers['set-cookie']![0]).split(';')[0]!;
}

export async function registerClient(http: ReturnType<typeof request>, extra: Record<string, unknown> = {}): Promise<{ client_id: string; client_secret?: string }> {
  const res = await http.post('/oauth/register').send({ client_name: 'Test assistant', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], ...extra }).expect(201);
  return res.body;
}

export type AuthParams = Record<string, string>;

export const authorizeQuery = (params: AuthParams): string => `/dashboard/oauth/authorize?${new URLSearchParams(params).toString()}`;

/** The consent page for `params` (signed in), and the CSRF token in its form. */
export async function consentPage(http: ReturnType<typeof request>, cookie: string, params: AuthParams): Promise<{ html: string; csrf: string }> {
  const res = await http.get(authorizeQuery(params)).set('cookie', cookie).expect(200);
  const csrf = /name="csrf" value="([^"]+)"/.exec(res.text)?.[1];
  expect(csrf, 'the consent form carries a CSRF token').to.be.a('string');
  return { html: res.text, csrf: csrf! };
}

/** The owner's decision, posted as the consent form posts it; the redirect's URL. */
export async function decide(http: ReturnType<typeof request>, cookie: string, params: AuthParams, csrf: string, decision: 'allow' | 'deny', keys: string[]): Promise<URL> {
  const form = new URLSearchParams({ ...params, csrf, decision });
  for (const k of keys) form.append('key', k);
  const res = await http.post('/dashboard/oauth/authorize').set('cookie', cookie).type('form').send(form.toString()).expect(303);
  return new URL(res.headers['location']!);
}

/** The fingerprint of a share token, as the ledger names it. */
export const fingerprintOf = (token: string): string => tokenFingerprint((JSON.parse(Buffer.from(token.slice(4).split('.')[0]!, 'base64url').toString('utf8')) as { i: string }).i);
