// Dashboard sign-in: the owner pastes the API key once and gets a signed, HttpOnly, SameSite=Strict
// cookie scoped to /dashboard. The cookie is stateless (expiry, nonce, HMAC) so every service
// process sharing the database accepts it. Forms that change something carry a CSRF token derived
// from the session, and the cookie is never accepted by the API routes.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';

export const SESSION_COOKIE = 'sy_dashboard';
export const SESSION_COOKIE_PATH = '/dashboard';
const TTL_MS = 12 * 60 * 60 * 1000;

const b64url = (b: Buffer): string => b.toString('base64url');

export interface DashboardSession {
  id: string;
  expiresAt: number;
}

export class DashboardSessions {
  constructor(
    private readonly key: Uint8Array,
    private readonly now: () => number = Date.now,
  ) {}

  private mac(text: string): string {
    return b64url(createHmac('sha256', this.key).update(text).digest());
  }

  issue(res: Response, secure: boolean): DashboardSession {
    const session = { id: b64url(randomBytes(16)), expiresAt: this.now() + TTL_MS };
    const body = `${session.expiresAt}.${session.id}`;
    res.cookie(SESSION_COOKIE, `${body}.${this.mac(body)}`, { httpOnly: true, sameSite: 'strict', path: SESSION_COOKIE_PATH, secure, maxAge: TTL_MS });
    return session;
  }

  clear(res: Response): void {
    res.clearCookie(SESSION_COOKIE, { path: SESSION_COOKIE_PATH });
  }

  /** The request's session, or null when there is none, it is forged or it expired. */
  of(req: Request): DashboardSession | null {
    const value = cookieValue(req.get('cookie'), SESSION_COOKIE);
    const parts = value?.split('.');
    if (!parts || parts.length !== 3) return null;
    const [expires, id, mac] = parts as [string, string, string];
    if (!safeEqual(mac, this.mac(`${expires}.${id}`))) return null;
    const expiresAt = Number(expires);
    if (!Number.isSafeInteger(expiresAt) || expiresAt <= this.now()) return null;
    return { id, expiresAt };
  }

  csrfToken(session: DashboardSession): string {
    return this.mac(`csrf:${session.id}`);
  }

  checkCsrf(session: DashboardSession, presented: unknown): boolean {
    return typeof presented === 'string' && safeEqual(presented, this.csrfToken(session));
  }
}

/** Compares two texts in constant time (a CSRF token, an OAuth state). */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** A cookie's value from the Cookie header (the encoding guard has refused a malformed one of ours). */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return decodeURIComponent(part.slice(at + 1).trim());
  }
  return undefined;
}
