// What a refresh of an imported server does with each listed tool, given the pins in force: serve
// it (its definition is the pinned one), pin it (first import of the server, or a server set to
// accept changes), or hold it for the owner (changed, new on a known server, or gone). Pure: the
// adapters list the tools, store the pins and register what is served.
import type { ToolPin } from './tool-pin.js';

/** upstreams.servers.<name>.onChange: hold a changed definition for the owner, or pin it and serve it at once. */
export type OnChange = 'hold' | 'accept';

/** A tool as this refresh listed it. */
export interface ListedDefinition {
  key: string;
  tool: string;
  definition_hash: string;
  /** Its canonical JSON (tool-definition.ts). */
  definition: string;
  /** The hash of the owner's override of it, null when it has none. */
  override_hash: string | null;
}

export type HoldReason = 'changed' | 'new' | 'removed';

/** A tool held for the owner's review: out of every tools/list, and dispatch answers tool_changed. */
export interface HeldTool {
  key: string;
  server: string;
  tool: string;
  reason: HoldReason;
  /** The pin in force (null for a new tool). */
  pinned: { definition_hash: string; definition: string; pinned_at: string } | null;
  /** What the server lists now (null for a removed tool), with the hash of the owner's override. */
  listed: { definition_hash: string; definition: string; override_hash: string | null } | null;
  held_since: string;
  /** Refreshes in a row that found this tool's listed definition different from the refresh before. */
  changes_in_a_row: number;
}

/** A pin to append (its id, author and time are given by the caller). */
export type PinToMake = Omit<ToolPin, 'id' | 'pinned_by' | 'pinned_at'>;

export interface Review {
  /** Keys whose listed definition is the pinned one (or is pinned by this review): registered. */
  served: string[];
  pins: PinToMake[];
  held: HeldTool[];
  /** Holds past MAX_HELD_PER_SERVER, left out of the list (their tools stay unserved). */
  omitted: number;
}

/** A server's hold list never grows past this: a server listing thousands of new tools cannot grow memory or pages without end. */
export const MAX_HELD_PER_SERVER = 200;
/** A tool whose definition changed on this many refreshes in a row is flapping: its approval waits until it holds still. */
export const FLAPPING_AFTER = 3;

export interface ReviewInput {
  server: string;
  onChange: OnChange;
  listed: ListedDefinition[];
  /** The pins in force for this server (the newest of each tool). */
  pins: ToolPin[];
  /** The holds the last review left, to count changes in a row and keep held_since. */
  previous: HeldTool[];
  now: string;
}

export function reviewListing(input: ReviewInput): Review {
  const { server, onChange, listed, now } = input;
  // Pins are found by the upstream's tool name, so an override that renames a tool (a new key) keeps its pin.
  const pinOf = new Map(input.pins.map((p) => [p.tool, p]));
  const before = new Map(input.previous.map((h) => [h.key, h]));
  // Nothing pinned yet: the server's first import, trusted on first use.
  const firstUse = input.pins.length === 0;
  const served: string[] = [];
  const pins: PinToMake[] = [];
  const held: HeldTool[] = [];
  const listedTools = new Set<string>();
  for (const t of listed) {
    listedTools.add(t.tool);
    const pin = pinOf.get(t.tool);
    if (pin && pin.definition_hash === t.definition_hash) {
      // The owner's override changed (config), the upstream did not: the owner made that change, so it is pinned and served.
      if ((pin.override_hash ?? null) !== t.override_hash) pins.push({ ...pinOfListed(t, server), reason: 'override' });
      served.push(t.key);
      continue;
    }
    if (firstUse || onChange === 'accept') {
      pins.push({ ...pinOfListed(t, server), reason: firstUse ? 'first_use' : 'accepted' });
      served.push(t.key);
      continue;
    }
    const previous = before.get(t.key);
    const changedAgain = previous?.listed !== undefined && previous.listed !== null && previous.listed.definition_hash !== t.definition_hash;
    held.push({
      key: t.key,
      server,
      tool: t.tool,
      reason: pin ? 'changed' : 'new',
      pinned: pin ? { definition_hash: pin.definition_hash, definition: pin.definition, pinned_at: pin.pinned_at } : null,
      listed: { definition_hash: t.definition_hash, definition: t.definition, override_hash: t.override_hash },
      held_since: previous?.held_since ?? now,
      changes_in_a_row: changedAgain ? previous.changes_in_a_row + 1 : 0,
    });
  }
  // A pinned tool the server no longer lists is held, never forgotten: if it comes back changed, that is seen.
  if (onChange === 'hold') {
    for (const pin of input.pins) {
      if (listedTools.has(pin.tool)) continue;
      const previous = before.get(pin.key);
      held.push({
        key: pin.key, server, tool: pin.tool, reason: 'removed',
        pinned: { definition_hash: pin.definition_hash, definition: pin.definition, pinned_at: pin.pinned_at },
        listed: null,
        held_since: previous?.reason === 'removed' ? previous.held_since : now,
        changes_in_a_row: 0,
      });
    }
  }
  held.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const omitted = Math.max(0, held.length - MAX_HELD_PER_SERVER);
  return { served, pins, held: held.slice(0, MAX_HELD_PER_SERVER), omitted };
}

const pinOfListed = (t: ListedDefinition, server: string): Omit<PinToMake, 'reason'> => ({ key: t.key, server, tool: t.tool, definition_hash: t.definition_hash, definition: t.definition, override_hash: t.override_hash });

/** True when a held tool's definition keeps changing: approving it would pin a definition already gone. */
export const isFlapping = (h: HeldTool): boolean => h.changes_in_a_row >= FLAPPING_AFTER;
