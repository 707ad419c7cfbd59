// Yield accounting, defined once (docs/yield.md says the same in words).
import type { CostModel } from './capability.js';

export interface Yield {
  tokens: { in: number; out: number };
  /** Integer micro-units charged for this run (0 when the runner was never reached). */
  cost: number;
  /** Bytes of useful result: the result's JSON text of an ok run, plus the decoded bytes of its binary content. */
  material: number;
  /** What a run that did not succeed consumed: body bytes and any cost charged. */
  waste: { bytes: number; cost: number };
}

const utf8Bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

/** Tokens estimated as one per 4 bytes of UTF-8 text, rounded up: the common approximation. */
export const estimateTokens = (text: string): number => Math.ceil(utf8Bytes(text) / 4);

export function runCost(model: CostModel | undefined, args: unknown): number {
  if (!model) return 0;
  let cost = model.perRunMicros;
  if (model.perItemMicros && model.itemsFrom && args && typeof args === 'object') {
    const items = (args as Record<string, unknown>)[model.itemsFrom];
    if (Array.isArray(items)) cost += model.perItemMicros * items.length;
  }
  return cost;
}

export function computeYield(input: { bodyText: string; resultText: string; ok: boolean; ran: boolean; cost: CostModel | undefined; args: unknown; binaryBytes?: number }): Yield {
  const cost = input.ran ? runCost(input.cost, input.args) : 0;
  const bodyBytes = utf8Bytes(input.bodyText);
  return {
    tokens: { in: estimateTokens(input.bodyText), out: estimateTokens(input.resultText) },
    cost,
    // Images, audio and blobs count as the bytes they are, never as their base64 text.
    material: input.ok ? utf8Bytes(input.resultText) + (input.binaryBytes ?? 0) : 0,
    waste: input.ok ? { bytes: 0, cost: 0 } : { bytes: bodyBytes, cost },
  };
}
