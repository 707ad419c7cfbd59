// The base URL that run_now links and addresses are built on: config first, else the request's own.
// The request's own is only a scheme and a host it could really have: a Host header is the caller's
// text, and it is written into links (markdown, JSON), so anything else is taken as localhost.
import type { Request } from 'express';

/** A host name or IPv4 address (labels between dots: no nested quantifier to backtrack), or a bracketed IPv6 address, with an optional port. */
const HOST = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.?|\[[0-9A-Fa-f:.]{2,45}\])(?::[0-9]{1,5})?$/;

export const baseUrlOf = (req: Request, configured: string | null): string => {
  if (configured) return configured.replace(/\/$/, '');
  const host = req.get('host');
  const protocol = req.protocol === 'https' ? 'https' : 'http';
  return `${protocol}://${host !== undefined && host.length <= 300 && HOST.test(host) ? host : 'localhost'}`;
};
