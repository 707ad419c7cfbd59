// One guard, first in every request (request-observer.ts): a request whose path, query or one of the cookies the service reads
// holds malformed percent-encoding (a `%` without two hex digits, or bytes that are not UTF-8) is
// 400 invalid_request before any route decodes it, instead of a URIError deep in a route (500).
import type { Request, Response } from 'express';
import { SwitchyardError } from '@switchyard/core';

/** A cookie the service decodes, and the path it was set with (to clear a malformed one). */
export interface ReadCookie {
  name: string;
  path: string;
}

const wellFormed = (text: string): boolean => {
  if (!text.includes('%')) return true;
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
};

/** The raw value of each cookie in `names` that the Cookie header carries. */
function cookieValues(header: string | undefined, names: ReadonlySet<string>): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    const name = at > 0 ? part.slice(0, at).trim() : '';
    if (names.has(name)) out.push([name, part.slice(at + 1).trim()]);
  }
  return out;
}

/**
 * Only the cookies the service reads are checked: a browser sends every cookie of the host (other
 * ports' included), and a foreign cookie the service never decodes must not lock anyone out. A
 * malformed one of ours is cleared in the 400 answer, so the next request goes through.
 * The check answers the error to throw, or null when the request is well formed.
 */
export function malformedEncodingGuard(readCookies: readonly ReadCookie[]): (req: Request, res: Response) => SwitchyardError | null {
  const names = new Set(readCookies.map((c) => c.name));
  return (req, res) => {
    const url = req.url;
    // Most requests have no escape at all: one scan.
    if (!url.includes('%') && (names.size === 0 || req.headers.cookie === undefined)) return null;
    const queryAt = url.indexOf('?');
    const path = queryAt < 0 ? url : url.slice(0, queryAt);
    if (!wellFormed(path)) return new SwitchyardError('invalid_request', 'the path holds malformed percent-encoding', { where: 'path' });
    if (queryAt >= 0 && !wellFormed(url.slice(queryAt + 1))) return new SwitchyardError('invalid_request', 'the query holds malformed percent-encoding', { where: 'query' });
    if (names.size > 0 && req.headers.cookie !== undefined) {
      for (const [name, value] of cookieValues(req.headers.cookie, names)) {
        if (wellFormed(value)) continue;
        for (const cookie of readCookies) if (cookie.name === name) res.clearCookie(name, { path: cookie.path });
        return new SwitchyardError('invalid_request', `the cookie ${name} holds malformed percent-encoding; it has been cleared`, { where: 'cookie', cookie: name });
      }
    }
    return null;
  };
}
