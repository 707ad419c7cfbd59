// The commitments a leaf makes to an entry's private fields, and their opening. Version 1 leaves
// commit to all private fields at once ("sha256:" hex of salt ‖ canonical JSON of them); version 2
// leaves (invocations and deliveries) commit to each field on its own, so a verifier can name the
// field that does not open. The log hands out the salt and the fields in a receipt; anyone holding
// the leaf can then check them.
import { hash } from 'node:crypto';
import { canonicalJson } from './canonical-json.js';

/** "sha256:" hex of salt ‖ canonical JSON of the private fields. */
export const commitment = (salt: string, privateFields: unknown): string => `sha256:${hash('sha256', salt + canonicalJson(privateFields), 'hex')}`;

/** One private field's commitment: "sha256:" hex of salt ‖ canonical JSON of {field: value}. */
export const fieldCommitment = (salt: string, field: string, value: unknown): string =>
  // The canonical JSON of {field: value}, written without building the object (a leaf makes several).
  `sha256:${hash('sha256', `${salt}{${JSON.stringify(field)}:${canonicalJson(value)}}`, 'hex')}`;

/** Every private field's commitment, by name (a field whose value is undefined is left out, as canonical JSON would). */
export function fieldCommitments(salt: string, privateFields: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const field of Object.keys(privateFields).sort()) if (privateFields[field] !== undefined) out[field] = fieldCommitment(salt, field, privateFields[field]);
  return out;
}

/**
 * The private fields an opening (salt and private fields) does not open, by name; empty when it
 * opens the leaf. A version 2 leaf names each field that differs, is missing or was added; a
 * version 1 leaf commits to them all at once, so it can only say `private fields`.
 */
export function unopenedFields(leafText: string, salt: string, privateFields: Record<string, unknown>): string[] {
  const leaf = JSON.parse(leafText) as { v?: unknown; commitment?: unknown; commitments?: unknown };
  if (leaf.v !== 2) return leaf.commitment === commitment(salt, privateFields) ? [] : ['private fields'];
  const committed = (typeof leaf.commitments === 'object' && leaf.commitments !== null ? leaf.commitments : {}) as Record<string, unknown>;
  const opened = fieldCommitments(salt, privateFields);
  return [...new Set([...Object.keys(committed), ...Object.keys(opened)])].sort().filter((field) => committed[field] !== opened[field]);
}

/** True when the opening (salt and private fields) matches the leaf's commitment(s). */
export function opensCommitment(leafText: string, salt: string, privateFields: Record<string, unknown>): boolean {
  return unopenedFields(leafText, salt, privateFields).length === 0;
}

/**
 * The public fields of an entry as served that differ from its leaf, by name: a record edited
 * after it joined the tree shows here.
 */
export function publicFieldsDiffering(leafText: string, publicFields: Record<string, unknown>): string[] {
  const leaf = JSON.parse(leafText) as Record<string, unknown>;
  return Object.keys(publicFields)
    .sort()
    .filter((field) => canonicalJson(leaf[field] ?? null) !== canonicalJson(publicFields[field] ?? null));
}
