// WEB_FETCH: fetches a URL, run locally (type fn) with the pipe body form METHOD|URL||body.
import type { CapabilityDefinition } from '@switchyard/plugin-kit';

export const SYSTEM = 'WEB';
export const RUNNER = 'web fetch';
export const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

export const webFetch: CapabilityDefinition = {
  key: 'WEB_FETCH',
  system: SYSTEM,
  description:
    'Fetches a URL; used with a body of the form METHOD, a pipe, the URL, two pipes (a request body may follow the two pipes; a JSON object {method, url, headers, body} is accepted too)',
  type: 'fn',
  runner: RUNNER,
  bodyFormat: 'pipe',
  inputs: {
    type: 'object',
    properties: {
      method: { enum: [...METHODS], description: 'HTTP method' },
      url: { type: 'string', format: 'uri', pattern: '^[hH][tT][tT][pP][sS]?://', maxLength: 8192, description: 'http or https URL' },
      headers: { type: 'object', additionalProperties: { type: 'string' }, maxProperties: 50, description: 'request headers' },
      body: { type: 'string', description: 'request body (text)' },
    },
    required: ['method', 'url'],
    additionalProperties: false,
  },
  auth: 'none',
  risk: 'low',
  approval: false,
  // Any method to any public URL: it may write or delete out there, and twice may do it twice.
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  limits: { notes: ['loopback, private, link-local and cloud-metadata addresses are refused (checked after DNS)', 'response size and time are capped'] },
  cost: { perRunMicros: 100 },
  example: 'GET|https://example.com/||',
};

export const capabilities: CapabilityDefinition[] = [webFetch];
