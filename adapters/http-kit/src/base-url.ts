// The base URL that run_now links and addresses are built on: config first, else the request's own.
import type { Request } from 'express';

export const baseUrlOf = (req: Request, configured: string | null): string =>
  configured ? configured.replace(/\/$/, '') : `${req.protocol}://${req.get('host') ?? 'localhost'}`;
