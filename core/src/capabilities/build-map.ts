// The build: the whole registry as one map, identified by its terminal key (DESIGN.md §6).
// The key hashes what a capability *is* (its definition), never where its upstream happens to
// listen today, so it is stable across restarts and changes only when the registry does.
import { createHash } from 'node:crypto';
import { ROOT, type Capability, type SystemNode } from './capability.js';
import { canonicalJson } from '@switchyard/verifier';

export interface BuildMap {
  root: string;
  /** sha256:<hex> of the RFC 8785 canonical JSON of the registry's definitions, sorted by key. */
  terminalKey: string;
  count: number;
  systems: SystemNode[];
}

/** A capability as it enters the terminal key: its definition, without the host-assigned upstream URL. */
const definitionOf = (c: Capability): Record<string, unknown> => {
  const { upstreamUrl: _where, ...definition } = c;
  return definition;
};

export function terminalKey(capabilities: readonly Capability[]): string {
  const sorted = [...capabilities].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)).map(definitionOf);
  return `sha256:${createHash('sha256').update(canonicalJson({ root: ROOT, capabilities: sorted })).digest('hex')}`;
}

export function buildMap(systems: SystemNode[]): BuildMap {
  const all = systems.flatMap((s) => s.capabilities);
  return { root: ROOT, terminalKey: terminalKey(all), count: all.length, systems };
}
