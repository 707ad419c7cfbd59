// Destinations' circuits shared by every process on one PostgreSQL database (migration 025): a
// change locks the destination's row (made on first use), so two processes never both let the one
// probe of an open circuit through, nor hand out one `rate_per_s` slot twice. Times are epoch ms
// from each process's clock: keep the hosts' clocks in sync.
import type { Knex } from 'knex';
import { CLOSED_CIRCUIT, type Circuit, type CircuitStore } from '@switchyard/core';

interface Row {
  destination: string;
  failures: number | string;
  open_until: number | string;
  probe_until: number | string;
  next_slot: number | string;
}

const circuitOf = (row: Row | undefined): Circuit =>
  row ? { failures: Number(row.failures), openUntil: Number(row.open_until), probeUntil: Number(row.probe_until), nextSlot: Number(row.next_slot) } : CLOSED_CIRCUIT;

export class KnexCircuitStore implements CircuitStore {
  constructor(private readonly knex: Knex) {}

  async read(destinations: string[]): Promise<Map<string, Circuit>> {
    const rows: Row[] = destinations.length ? await this.knex('destination_circuits').whereIn('destination', destinations) : [];
    const byId = new Map(rows.map((r) => [r.destination, r]));
    return new Map(destinations.map((d) => [d, circuitOf(byId.get(d))]));
  }

  async change<T>(destination: string, decide: (circuit: Circuit) => { result: T; next: Circuit }): Promise<T> {
    return this.knex.transaction(async (trx) => {
      await trx.raw('INSERT INTO destination_circuits (destination, failures, open_until, probe_until, next_slot) VALUES (?, 0, 0, 0, 0) ON CONFLICT (destination) DO NOTHING', [destination]);
      const row = (await trx('destination_circuits').where({ destination }).forUpdate().first()) as Row;
      const current = circuitOf(row);
      const { result, next } = decide(current);
      if (next !== current) {
        await trx('destination_circuits')
          .where({ destination })
          .update({ failures: next.failures, open_until: Math.ceil(next.openUntil), probe_until: Math.ceil(next.probeUntil), next_slot: Math.ceil(next.nextSlot) });
      }
      return result;
    });
  }
}
