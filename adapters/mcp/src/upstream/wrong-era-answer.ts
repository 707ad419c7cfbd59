// A 2025-era session (opened with initialize) has no way to answer an InputRequiredResult or any
// other 2026-07-28 result type: an upstream that sends one answered in the wrong era. Taken as an
// ordinary result it would read as an empty success, a run recorded ok that never ran, so it
// fails the run instead, saying what the upstream sent.
import { SwitchyardError } from '@switchyard/core';

/** Throws upstream_unavailable when a 2025 session's tools/call answer names a resultType other than complete. */
export function refuseWrongEraAnswer(answer: unknown, upstream: string, tool: string): void {
  const resultType = typeof answer === 'object' && answer !== null ? (answer as { resultType?: unknown }).resultType : undefined;
  if (resultType === undefined || resultType === 'complete') return;
  throw new SwitchyardError('upstream_unavailable', `${upstream} answered ${tool} with resultType ${JSON.stringify(resultType)}, a 2026-07-28 result, on a session opened at 2025-11-25 (initialize): the call did not complete`, { upstream, tool, result_type: typeof resultType === 'string' ? resultType : String(resultType) });
}
