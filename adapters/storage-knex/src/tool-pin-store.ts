// Pinned tool definitions on knex: append-only rows (queued for the Merkle log by trigger); the
// newest pin of a key is the one in force.
import type { Knex } from 'knex';
import type { ToolPin, ToolPinStore } from '@switchyard/core';
import type { LedgerSource } from './ledger-source.js';

/**
 * The tool pins' place in the ledger (ledger-sources.ts). The leaf carries a pin's hash, not its
 * definition (up to 256 KiB): that text is never read for it.
 */
export const TOOL_PIN_SOURCE: LedgerSource<'tool_definition'> = {
  kind: 'tool_definition',
  table: 'tool_pins',
  idColumn: 'id',
  timeColumn: 'pinned_at',
  leafColumns: ['seq', 'id', 'key', 'server', 'tool', 'definition_hash', 'override_hash', 'reason', 'pinned_by', 'pinned_at'],
  toEntry: (r) => ({ kind: 'tool_definition', entry: { ...(r as unknown as ToolPin), definition: '' } }),
};

const COLUMNS = ['id', 'key', 'server', 'tool', 'definition_hash', 'definition', 'override_hash', 'reason', 'pinned_by', 'pinned_at'] as const;

export class KnexToolPinStore implements ToolPinStore {
  constructor(private readonly knex: Knex) {}

  async pin(pins: ToolPin[]): Promise<void> {
    if (pins.length === 0) return;
    await this.knex.transaction(async (trx) => {
      // Small groups: a server's first import may pin hundreds of tools, each with its definition.
      for (let i = 0; i < pins.length; i += 50) await trx('tool_pins').insert(pins.slice(i, i + 50).map((p) => pick(p)));
    });
  }

  async current(server: string): Promise<ToolPin[]> {
    // The newest row of each tool: no later row of the same server and tool (an override may rename its key).
    return (await this.knex('tool_pins as p')
      .select(...COLUMNS.map((c) => `p.${c}`))
      .where('p.server', server)
      .whereNotExists(this.knex('tool_pins as q').select(this.knex.raw('1')).whereRaw('q.server = p.server AND q.tool = p.tool AND q.seq > p.seq'))
      .orderBy('p.tool')) as ToolPin[];
  }

  async get(id: string): Promise<ToolPin | undefined> {
    return (await this.knex('tool_pins').select(...COLUMNS).where({ id }).first()) as ToolPin | undefined;
  }
}

const pick = (p: ToolPin): ToolPin => ({ id: p.id, key: p.key, server: p.server, tool: p.tool, definition_hash: p.definition_hash, definition: p.definition, override_hash: p.override_hash, reason: p.reason, pinned_by: p.pinned_by, pinned_at: p.pinned_at });
