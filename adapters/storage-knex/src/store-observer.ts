// What an append-only store reports as it writes, so an adapter outside storage can count it
// (metrics) without the store knowing how: each record once committed, and its group commits.
import type { GroupCommitObserver } from './group-commit.js';

export interface StoreObserver<R> extends GroupCommitObserver {
  /** A record is committed (called before its appender is answered). */
  appended(record: R): void;
}

export interface StoreOptions<R> {
  observer?: StoreObserver<R>;
}
