// Destinations' circuits in one process's memory (SQLite, a single process); PostgreSQL keeps them
// in a table every process reads and changes atomically (storage-knex's KnexCircuitStore).
import { CLOSED_CIRCUIT, type Circuit } from './circuit.js';
import type { CircuitStore } from './ports.js';

/** One process's circuits: a read, a decision and a write with no await between them. */
export class MemoryCircuitStore implements CircuitStore {
  private readonly circuits = new Map<string, Circuit>();

  async read(destinations: string[]): Promise<Map<string, Circuit>> {
    return new Map(destinations.map((d) => [d, this.circuits.get(d) ?? CLOSED_CIRCUIT]));
  }

  async change<T>(destination: string, decide: (circuit: Circuit) => { result: T; next: Circuit }): Promise<T> {
    const current = this.circuits.get(destination) ?? CLOSED_CIRCUIT;
    const { result, next } = decide(current);
    if (next !== current) this.circuits.set(destination, next);
    return result;
  }
}
