// An upstream's schema is checked as its author wrote it: by an Ajv of the schema's own dialect,
// never by a rewritten copy. MCP schemas default to JSON Schema 2020-12 (a schema without `$schema`
// is 2020-12, and one written the draft-07 way is tried as draft-07 next); draft-07 is the other
// dialect servers declare. Unknown keywords and formats are ignored, as a validator of either
// dialect must; a schema no validator here compiles (another dialect, a `$ref` to nowhere) is
// served as given and the upstream checks the arguments itself.
import { Ajv, type Options } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { JsonSchema } from '../json-schema.js';
import { compileValidator, type ArgumentValidator } from '../validation.js';

// ajv-formats ships CommonJS; under NodeNext its default export arrives wrapped.
type AddFormats = (ajv: Ajv) => Ajv;
const addFormats: AddFormats =
  (addFormatsModule as unknown as { default: AddFormats }).default ?? (addFormatsModule as unknown as AddFormats);

export type SchemaDialect = '2020-12' | 'draft-07';

const DIALECTS: Record<string, SchemaDialect> = {
  'https://json-schema.org/draft/2020-12/schema': '2020-12',
  'http://json-schema.org/draft-07/schema': 'draft-07',
};

/**
 * The dialects to try for a schema, in order: the one its `$schema` names; 2020-12 then draft-07
 * when it names none; nothing for a dialect we have no validator of (draft-04, 2019-09, a custom
 * meta-schema).
 */
export function dialectsOf(schema: unknown): SchemaDialect[] {
  const declared = typeof schema === 'object' && schema !== null ? (schema as JsonSchema)['$schema'] : undefined;
  if (declared === undefined) return ['2020-12', 'draft-07'];
  if (typeof declared !== 'string') return [];
  const dialect = DIALECTS[declared.replace(/#$/, '').replace(/^http:\/\/json-schema\.org\/draft\/2020/, 'https://json-schema.org/draft/2020').replace(/^https:\/\/json-schema\.org\/draft-07/, 'http://json-schema.org/draft-07')];
  return dialect ? [dialect] : [];
}

// Lenient where the dialects say a validator ignores what it does not know; `addUsedSchema: false`
// so two tools that reuse one `$id` for different schemas do not collide in the shared instance.
const OPTIONS: Options = { strict: false, allErrors: true, useDefaults: true, coerceTypes: false, addUsedSchema: false, logger: false };

/** Validators for schemas as upstreams give them; one per registry (each Ajv compiles its meta-schema once). */
export class UpstreamSchemaValidators {
  private readonly ajvs = new Map<SchemaDialect, Ajv>();

  /** A validator of the schema in its dialect, or undefined when no validator here compiles it. */
  compile(schema: unknown): ArgumentValidator | undefined {
    if (typeof schema === 'boolean') return schema ? () => [] : undefined;
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return undefined;
    for (const dialect of dialectsOf(schema)) {
      try {
        return compileValidator(this.ajvOf(dialect), schema as JsonSchema);
      } catch {
        // not this dialect's schema, or not compilable in it: the next one, else the upstream validates
      }
    }
    return undefined;
  }

  private ajvOf(dialect: SchemaDialect): Ajv {
    let ajv = this.ajvs.get(dialect);
    if (!ajv) {
      ajv = dialect === '2020-12' ? (new Ajv2020(OPTIONS) as unknown as Ajv) : new Ajv(OPTIONS);
      addFormats(ajv);
      this.ajvs.set(dialect, ajv);
    }
    return ajv;
  }
}

/** What a schema no validator here compiles is checked with: nothing; the upstream validates. */
export const UPSTREAM_VALIDATES: ArgumentValidator = () => [];
