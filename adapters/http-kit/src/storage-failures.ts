// Storage failures as the faces answer them: a database that did not serve a request (unreachable,
// read-only, full, busy) is the database's failure, not the request's, so the answer is 503
// storage_unavailable with Retry-After, never 500. The storage adapter knows the drivers' codes;
// the composition root hands the faces its classifier and where failures are reported.
import { SwitchyardError } from '@switchyard/core';

/** How long a client is asked to wait before retrying a request the database could not take. */
export const STORAGE_RETRY_AFTER_SECONDS = 5;

/** How the face tells a storage failure from a bug (the storage adapter knows the drivers' codes), and where it reports one. */
export interface StorageFailures {
  /** The kind of storage failure `err` is, or null when it is none. */
  kindOf(err: unknown): string | null;
  /** A request was answered storage_unavailable for a failure of this kind. */
  failed(kind: string, err: unknown): void;
}

/** A database that did not serve the request is the database's failure, not the request's: 503, never 500. */
export function storageFailure(err: unknown, failures: StorageFailures | undefined): SwitchyardError | undefined {
  if (!failures) return undefined;
  if (SwitchyardError.is(err, 'storage_unavailable')) {
    failures.failed(failures.kindOf((err as { cause?: unknown }).cause) ?? 'other', err);
    return err;
  }
  if (SwitchyardError.is(err)) return undefined;
  const kind = failures.kindOf(err);
  if (kind === null) return undefined;
  failures.failed(kind, err);
  return new SwitchyardError('storage_unavailable', `the database did not serve the request (${kind.replace('_', '-')}); retry later`, { kind });
}

