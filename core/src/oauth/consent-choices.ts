// What the consent page offers for each tool a client asked for: a readable title, the cautions the
// owner should see, and whether its box starts ticked. Consent asks for the minimum: a tool that may
// destroy something, is high risk or needs the owner's approval per run is never ticked by default;
// the owner ticks it on purpose.
import type { Capability } from '../capabilities/index.js';

export type ConsentCaution = 'destructive' | 'high_risk' | 'approval';

export interface ConsentChoice {
  key: string;
  /** A name a person reads: the tool's title, its annotations' title, else words from its key. */
  title: string;
  description: string;
  cautions: ConsentCaution[];
  /** Ticked when the page opens: asked for and without cautions. */
  ticked: boolean;
}

/**
 * Destructive as MCP's annotations say, with MCP's defaults: a tool that is not read-only may
 * destroy unless it says destructiveHint: false (an imported tool that declares nothing counts as
 * destructive, as the spec presumes).
 */
export const isDestructive = (c: Pick<Capability, 'annotations'>): boolean => c.annotations?.readOnlyHint !== true && c.annotations?.destructiveHint !== false;

export function cautionsOf(c: Pick<Capability, 'annotations' | 'risk' | 'approval'>): ConsentCaution[] {
  return [...(isDestructive(c) ? (['destructive'] as const) : []), ...(c.risk === 'high' ? (['high_risk'] as const) : []), ...(c.approval ? (['approval'] as const) : [])];
}

const words = (text: string): string => {
  const lower = text.replace(/_+/g, ' ').trim().toLowerCase();
  return lower.charAt(0).toUpperCase() + lower.slice(1);
};

/** A readable name: title, annotations' title, else the key's words after its system ("Builds workers builds set active worker (Edge)"). */
export function readableTitle(c: Pick<Capability, 'key' | 'system' | 'title' | 'annotations'>): string {
  const given = c.title ?? c.annotations?.title;
  if (typeof given === 'string' && given.trim() !== '') return given.trim();
  const tail = c.key.startsWith(`${c.system}_`) ? c.key.slice(c.system.length + 1) : c.key;
  return tail === c.key ? words(c.key) : `${words(tail)} (${words(c.system)})`;
}

/** The choices for the keys a request asked for, in its order; a key not in the registry offers no box. */
export function consentChoices(keys: string[], capabilityOf: (key: string) => Capability | undefined): ConsentChoice[] {
  const out: ConsentChoice[] = [];
  for (const key of keys) {
    const c = capabilityOf(key);
    if (!c) continue;
    const cautions = cautionsOf(c);
    out.push({ key, title: readableTitle(c), description: c.description, cautions, ticked: cautions.length === 0 });
  }
  return out;
}
