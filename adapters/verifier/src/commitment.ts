// The commitment a leaf makes to an entry's private fields, and its opening: "sha256:" hex of
// salt ‖ canonical JSON (RFC 8785) of the private fields. The log hands the salt and the fields
// out in a receipt; anyone holding the leaf can then check them.
import { hash } from 'node:crypto';
import { canonicalJson } from './canonical-json.js';

/** "sha256:" hex of salt ‖ canonical JSON of the private fields. */
export const commitment = (salt: string, privateFields: unknown): string => `sha256:${hash('sha256', salt + canonicalJson(privateFields), 'hex')}`;

/** True when the opening (salt and private fields) matches the leaf's commitment. */
export function opensCommitment(leafText: string, salt: string, privateFields: unknown): boolean {
  const leaf = JSON.parse(leafText) as { commitment?: unknown };
  return leaf.commitment === commitment(salt, privateFields);
}
