// Query parameters shared by the ledger reads: limit (1–1000, default 50) and a numeric cursor.
import { SwitchyardError } from '@switchyard/core';

export const MAX_LIMIT = 1000;
export const DEFAULT_LIMIT = 50;

export function parseLimit(value: unknown): number {
  if (value === undefined) return DEFAULT_LIMIT;
  const n = typeof value === 'string' && /^[0-9]+$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > MAX_LIMIT) throw new SwitchyardError('invalid_request', `limit must be an integer from 1 to ${MAX_LIMIT}`);
  return n;
}

export function parseCursor(value: unknown, name: string): string | null {
  if (value === undefined) return null;
  if (typeof value !== 'string' || !/^[0-9]{1,15}$/.test(value)) throw new SwitchyardError('invalid_request', `${name} must be a cursor from next_cursor`);
  return value;
}
