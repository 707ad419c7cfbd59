// When the next attempt goes: exponential backoff with full jitter between initial_ms and max_ms.
import type { RetrySettings } from './destination.js';

/**
 * The delay before attempt `failed + 1`, after `failed` failed attempts: a random point in the
 * upper half of initial·2^(failed-1), capped at max_ms, so retries of many deliveries spread out
 * but never come sooner than half the nominal step.
 */
export function retryDelayMs(retry: RetrySettings, failed: number, random: () => number = Math.random): number {
  const nominal = Math.min(retry.max_ms, retry.initial_ms * 2 ** Math.max(0, Math.min(failed - 1, 40)));
  return Math.max(retry.initial_ms, Math.round(nominal / 2 + (random() * nominal) / 2));
}
