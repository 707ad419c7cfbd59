// What kind of storage failure an error is, from the drivers' own codes: the database cannot be
// reached, takes no writes (read-only), has no room (full), or is momentarily held (busy). Such a
// failure is the database's, not the request's: the request may be sent again later, so faces
// answer it 503 storage_unavailable with Retry-After, never 500. Null for anything else.

export type StorageFailureKind = 'unreachable' | 'read_only' | 'full' | 'busy';

const BY_CODE: Array<[RegExp, StorageFailureKind]> = [
  // SQLite (result codes; node-sqlite3 names the primary one in `code`).
  [/^SQLITE_FULL$/, 'full'],
  [/^SQLITE_READONLY$/, 'read_only'],
  [/^SQLITE_(BUSY|LOCKED)$/, 'busy'],
  [/^SQLITE_(IOERR|CANTOPEN|NOTADB)$/, 'unreachable'],
  // PostgreSQL SQLSTATEs: disk full / out of memory / too many files (53…), read-only transaction,
  // connection exceptions (08…), shutdown and recovery (57P0…), too many connections, lock and
  // serialization conflicts.
  [/^(53100|53200|53400)$/, 'full'],
  [/^25006$/, 'read_only'],
  [/^(08...|57P01|57P02|57P03|57P05|3D000)$/, 'unreachable'],
  [/^(53300|55P03|40001|40P01)$/, 'busy'],
  // The socket and the file system, for either engine.
  [/^(ENOSPC|EDQUOT|EFBIG)$/, 'full'],
  [/^EROFS$/, 'read_only'],
  [/^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH)$/, 'unreachable'],
];

// Errors the pg client and knex raise with a message only.
const BY_MESSAGE: Array<[RegExp, StorageFailureKind]> = [
  [/Connection terminated|Client has encountered a connection error|connection is closed|terminating connection|the database system is (starting up|shutting down|in recovery mode)/i, 'unreachable'],
  [/Timeout acquiring a connection|pool is probably full/i, 'unreachable'],
  [/database or disk is full|No space left on device/i, 'full'],
  [/attempt to write a readonly database|read-only transaction/i, 'read_only'],
];

/** The kind of storage failure `err` (or an error it was caused by) is, or null when it is none. */
export function storageFailureKind(err: unknown, depth = 0): StorageFailureKind | null {
  if (typeof err !== 'object' || err === null || depth > 4) return null;
  const { code, message, name, cause } = err as { code?: unknown; message?: unknown; name?: unknown; cause?: unknown };
  if (typeof code === 'string') for (const [pattern, kind] of BY_CODE) if (pattern.test(code)) return kind;
  if (name === 'KnexTimeoutError') return 'unreachable';
  if (typeof message === 'string') for (const [pattern, kind] of BY_MESSAGE) if (pattern.test(message)) return kind;
  return storageFailureKind(cause, depth + 1);
}
