// plugins.web-fetch in config: caps, and the allowlists that let it reach otherwise refused addresses.
import type { JsonSchema } from '@switchyard/plugin-kit';

export interface WebFetchOptions {
  /** Host names (exact, case-insensitive) fetched even when they resolve to a refused address. */
  allowHosts: string[];
  /** Address ranges (CIDR, IPv4 or IPv6) that are never refused. */
  allowCidrs: string[];
  maxResponseBytes: number;
  timeoutMs: number;
  maxRedirects: number;
  userAgent: string;
}

export const optionsSchema: JsonSchema = {
  type: 'object',
  properties: {
    allowHosts: { type: 'array', items: { type: 'string', minLength: 1 }, default: [] },
    allowCidrs: { type: 'array', items: { type: 'string', pattern: '^[0-9a-fA-F:.]+/[0-9]{1,3}$' }, default: [] },
    maxResponseBytes: { type: 'integer', minimum: 1, maximum: 104857600, default: 1048576 },
    timeoutMs: { type: 'integer', minimum: 100, maximum: 120000, default: 10000 },
    maxRedirects: { type: 'integer', minimum: 0, maximum: 20, default: 5 },
    userAgent: { type: 'string', default: 'Switchyard-WebFetch/0.1' },
  },
  additionalProperties: false,
};

export const defaultOptions: WebFetchOptions = {
  allowHosts: [],
  allowCidrs: [],
  maxResponseBytes: 1048576,
  timeoutMs: 10000,
  maxRedirects: 5,
  userAgent: 'Switchyard-WebFetch/0.1',
};
