// Where destinations' circuits live: one process's memory (SQLite, a single process), or a table
// every process reads and changes atomically (PostgreSQL), so a circuit opened by one holds in all.
import { CLOSED_CIRCUIT, type Circuit } from './circuit.js';

export interface CircuitStore {
  /** The circuits of these destinations as they are (closed for any never seen). */
  read(destinations: string[]): Promise<Map<string, Circuit>>;
  /**
   * Decides on one destination's circuit and keeps what `decide` makes of it, with no other change
   * in between (across processes when shared). `decide` gives back the same object to change nothing.
   */
  change<T>(destination: string, decide: (circuit: Circuit) => { result: T; next: Circuit }): Promise<T>;
}
export const CircuitStore = Symbol.for('switchyard.CircuitStore');

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
