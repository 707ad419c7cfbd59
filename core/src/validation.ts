// Argument validation: one strict Ajv instance, schemas compiled once at registration.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { JsonSchema } from './json-schema.js';

// ajv-formats ships CommonJS; under NodeNext its default export arrives wrapped.
type AddFormats = (ajv: Ajv) => Ajv;
const addFormats: AddFormats =
  (addFormatsModule as unknown as { default: AddFormats }).default ?? (addFormatsModule as unknown as AddFormats);

export interface ArgumentError {
  path: string;
  message: string;
  keyword: string;
  params: Record<string, unknown>;
}

export type ArgumentValidator = (args: unknown) => ArgumentError[];

export function createAjv(): Ajv {
  const ajv = new Ajv({ strict: true, allErrors: true, useDefaults: true, coerceTypes: false });
  addFormats(ajv);
  // RFC 3986 allows what no URL parser reads (an http host with a percent sign, a port past
  // 65535): a "uri" must also parse as a URL, so a runner is never handed one it cannot open.
  const rfc3986 = ajv.formats['uri'] as (value: string) => boolean;
  ajv.addFormat('uri', { type: 'string', validate: (value: string) => rfc3986(value) && URL.canParse(value) });
  return ajv;
}

const toArgumentError = (e: ErrorObject): ArgumentError => {
  const path = e.instancePath || '/';
  const extra = e.keyword === 'additionalProperties' ? ` (${String(e.params['additionalProperty'])})` : '';
  return { path, message: `${path} ${e.message ?? 'is invalid'}${extra}`, keyword: e.keyword, params: e.params as Record<string, unknown> };
};

export function compileValidator(ajv: Ajv, schema: JsonSchema): ArgumentValidator {
  const validate: ValidateFunction = ajv.compile(schema);
  return (args) => (validate(args) ? [] : (validate.errors ?? []).map(toArgumentError));
}
