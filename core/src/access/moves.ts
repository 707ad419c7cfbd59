// The moves a credential can make, and the sets of moves the service hands out: defined once, here.
// A move is what a request asks to do: read a contract, read a receipt, invoke a key…

/** The moves a share token can carry. invoke:<KEY> is per key; `invoke:*` stands for "any key the token allows". */
export const MOVES = ['contract:read', 'confirm:read', 'receipt:read', 'ledger:read', 'explain', 'invoke:*'] as const;

/** Without any credential: read contracts and confirmations, nothing else. */
export const PUBLIC_MOVES: readonly string[] = ['contract:read', 'confirm:read'];

/** A keyless token for running public capabilities (/start, self_scope). */
export const KEYLESS_MOVES: readonly string[] = ['contract:read', 'confirm:read', 'receipt:read', 'explain', 'invoke:*'];

/** A keyless workspace observer: reads, never runs. */
export const OBSERVER_MOVES: readonly string[] = ['contract:read', 'confirm:read', 'ledger:read', 'explain'];

/** Moves only the owner's API key makes: no token is ever minted with them, nor can carry them. */
export const OWNER_MOVES = {
  manageWebhooks: 'webhook:manage',
  readDeliveries: 'deliveries:read',
  mintTokens: 'token:mint',
  decideApprovals: 'approval:decide',
  manageUpstreams: 'upstream:manage',
  publishArticles: 'article:publish',
  manageOAuth: 'oauth:manage',
  readMetrics: 'metrics:read',
  eraseEntries: 'ledger:erase',
} as const;

/** What a capability key in a token looks like (case is the registry's business). */
export const TOKEN_KEY_PATTERN = /^[A-Za-z0-9_]{1,128}$/;

/** True for a move a token may carry: one of MOVES or invoke:<KEY>. */
export const isTokenMove = (move: string): boolean =>
  (MOVES as readonly string[]).includes(move) || (move.startsWith('invoke:') && TOKEN_KEY_PATTERN.test(move.slice('invoke:'.length)));
