// Writes whose fate is unknown. When the connection dies while a statement is in flight (the server
// was killed, the socket reset), its commit may have landed or not; an error the server answered,
// or a connection refused before anything was sent, means it did not. Each row's id is known before
// its write, so a store looks it up on another connection before it fails the write: a row that
// landed is answered as stored, and only a write known not to have landed fails (503 upstream).

/**
 * The pg client's words for a socket that died under a query, and the server's for a backend killed
 * at once (an immediate shutdown or a crash: it exits even mid-commit). A backend terminated in the
 * ordinary way (pg_terminate_backend, a fast shutdown: 57P01 "administrator command") aborts its
 * statement first, so that one is known not to have landed.
 */
const DIED_MESSAGE = /Connection terminated|server closed the connection unexpectedly|terminating connection (due to immediate shutdown|because of crash of another server process|due to unexpected postmaster exit)/i;
const DIED_CODE = /^(ECONNRESET|EPIPE)$/;

/** Whether `err` (or an error it was caused by) leaves a write's fate unknown: it may have committed. */
export function fateUnknown(err: unknown, depth = 0): boolean {
  if (typeof err !== 'object' || err === null || depth > 4) return false;
  const { code, message, cause } = err as { code?: unknown; message?: unknown; cause?: unknown };
  if (typeof code === 'string' && DIED_CODE.test(code)) return true;
  if (typeof message === 'string' && DIED_MESSAGE.test(message)) return true;
  return fateUnknown(cause, depth + 1);
}

/**
 * How long a write of unknown fate is looked up before it is failed: within any request's deadline,
 * and long enough for a database that restarts at once (the lookup is tried again while it cannot be
 * read).
 */
export const FATE_LOOKUP_MS = 5000;

/**
 * The ids of rows whose write is of unknown fate, for a store whose writes go through a group commit:
 * a batch that died may have landed although the item's own retry then failed another way.
 */
export class UnknownFates {
  private readonly ids = new Set<string>();

  /** Runs a write of rows `ids`; if its connection died under it, they are marked unknown. */
  async watch<T>(ids: readonly string[], write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      if (fateUnknown(err)) for (const id of ids) this.ids.add(id);
      throw err;
    }
  }

  /**
   * A write of row `id` that ended in `err`: if its fate is unknown, the row as stored once a lookup
   * finds it; otherwise (or if the lookup finds nothing, or cannot be made in time) `err` is thrown.
   */
  async resolve<T>(id: string, err: unknown, lookup: () => Promise<T | undefined>, deadlineMs = FATE_LOOKUP_MS): Promise<T> {
    const unknown = this.ids.delete(id) || fateUnknown(err);
    if (!unknown) throw err;
    const until = Date.now() + deadlineMs;
    for (let wait = 50; ; wait = Math.min(wait * 2, 500)) {
      try {
        const found = await lookup();
        if (found !== undefined) return found;
        throw err; // read, and not there: it did not land
      } catch (lookupErr) {
        if (lookupErr === err || Date.now() + wait > until) throw err;
      }
      await new Promise((r) => setTimeout(r, wait));
    }
  }

  /** Forgets `id` after a write that succeeded. */
  settled(id: string): void {
    this.ids.delete(id);
  }
}
