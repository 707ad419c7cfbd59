// The caller's side of a run, when it has one (an MCP client): progress and log messages it is
// told, and the questions an upstream may ask it (elicitation, sampling).
import type { UpstreamLogEntry } from '../content.js';

/** One progress step, as MCP's notifications/progress carries it. */
export interface ProgressStep {
  progress: number;
  total?: number;
  message?: string;
}

/**
 * What the caller of a run can be told or asked while it runs. `elicit` and `sample` are present
 * only when the caller's client declared it can answer them; an upstream asking for one that is
 * absent fails the run (elicitation_unsupported, sampling_unsupported).
 */
export interface CallerChannel {
  progress?(step: ProgressStep): void;
  /** A log message the upstream sent while the run ran; present only when the caller asked for log messages (logging/setLevel). */
  log?(entry: UpstreamLogEntry): void;
  /** `key`: the name a 2026-07-28 upstream gave the question in its inputRequests, kept when it is passed on the same way. */
  elicit?(params: Record<string, unknown>, key?: string): Promise<Record<string, unknown>>;
  sample?(params: Record<string, unknown>, key?: string): Promise<Record<string, unknown>>;
  /** The caller's roots (roots/list); only a 2026-07-28 caller that declared roots is asked (else roots_unsupported). */
  listRoots?(params: Record<string, unknown>, key?: string): Promise<Record<string, unknown>>;
}
