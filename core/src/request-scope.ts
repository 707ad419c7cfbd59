// The request-scope port: which request a piece of work belongs to.

/**
 * The request a piece of work belongs to (an HTTP request's id), so ledger records and log lines
 * can be matched. Null outside any request (timers, the CLI, tests of the core).
 */
export interface RequestScope {
  requestId(): string | null;
}
export const RequestScope = Symbol.for('switchyard.RequestScope');
export const noRequestScope: RequestScope = { requestId: () => null };
