// A JSON Schema document as plain data; Ajv does the interpreting.
export type JsonSchema = { [keyword: string]: unknown };
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
