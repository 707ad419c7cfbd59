// Every kind of ledger entry's source (ledger-source.ts), each written beside its store; this file
// only lists them, and its type makes a kind without a source fail to compile.
// Every such table has `seq`, the row's position in its table; the Merkle log's queue and leaves
// refer to an entry by (kind, seq), which grows with every insert, so their indexes are appended to
// at the end instead of written at a random place (entry ids are random by design).
import type { LedgerEntryKind } from '@switchyard/core';
import type { LedgerSource } from './ledger-source.js';
import { APPROVAL_SOURCE } from './approval-store.js';
import { ACTION_SOURCE, DELIVERY_SOURCE } from './delivery-store.js';
import { ERASURE_SOURCE } from './erasure-store.js';
import { INVOCATION_SOURCE } from './invocation-store.js';
import { TOKEN_USE_SOURCE } from './token-use-store.js';
import { TOOL_PIN_SOURCE } from './tool-pin-store.js';

export type { LedgerSource } from './ledger-source.js';

export const LEDGER_SOURCES: { readonly [K in LedgerEntryKind]: LedgerSource<K> } = {
  invocation: INVOCATION_SOURCE,
  delivery: DELIVERY_SOURCE,
  action: ACTION_SOURCE,
  token_use: TOKEN_USE_SOURCE,
  approval: APPROVAL_SOURCE,
  tool_definition: TOOL_PIN_SOURCE,
  erasure: ERASURE_SOURCE,
};
