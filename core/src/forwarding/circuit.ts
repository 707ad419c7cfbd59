// A destination's circuit and its pace (`rate_per_s`): closed while it answers; open after repeated
// failures (its deliveries wait, without attempts, until the cool-down ends); then probing, one
// attempt at a time, until one succeeds and closes it. The rules are here; where the state lives
// (one process's memory, or a table every process shares) is the CircuitStore port's business.

export interface Circuit {
  /** Consecutive failed attempts. */
  failures: number;
  /** When an open circuit lets a probe through (epoch ms). */
  openUntil: number;
  /** A probe is under way until then (epoch ms; 0 for none): a process that dies mid-probe frees it by this time. */
  probeUntil: number;
  /** The earliest time the next attempt may start under `rate_per_s` (epoch ms; 0 for none). */
  nextSlot: number;
}

export const CLOSED_CIRCUIT: Circuit = Object.freeze({ failures: 0, openUntil: 0, probeUntil: 0, nextSlot: 0 });

export type CircuitState = 'closed' | 'open' | 'probing';

/** The circuit as a destination's answer shows it: `until` is when an open circuit lets a probe through. */
export interface CircuitView {
  state: CircuitState;
  until: string | null;
  failures: number;
}

export interface CircuitRules {
  /** Consecutive failures that open the circuit. */
  openAfter: number;
  cooldownMs: number;
  /** How long a probe holds the circuit at most (the attempt's lease). */
  probeMs: number;
}

export function circuitView(circuit: Circuit, openAfter: number, now: number): CircuitView {
  if (circuit.failures < openAfter) return { state: 'closed', until: null, failures: circuit.failures };
  if (circuit.probeUntil <= now && circuit.openUntil > now) return { state: 'open', until: new Date(circuit.openUntil).toISOString(), failures: circuit.failures };
  return { state: 'probing', until: null, failures: circuit.failures };
}

/** May an attempt start now? `probe` when it is the one attempt an open circuit lets through. */
export type CircuitAdmission = { send: true; probe: boolean } | { send: false; until: number };

/**
 * The decision for one attempt and the circuit after it. `next` is the very object given when
 * nothing changes, so a store can skip the write.
 */
export function admit(c: Circuit, now: number, rules: CircuitRules, ratePerS: number | null): { result: CircuitAdmission; next: Circuit } {
  let probe = false;
  if (c.failures >= rules.openAfter) {
    if (c.openUntil > now) return { result: { send: false, until: c.openUntil }, next: c };
    if (c.probeUntil > now) return { result: { send: false, until: now + Math.min(1000, rules.cooldownMs) }, next: c };
    probe = true;
  }
  if (ratePerS) {
    // A probe that must wait for its slot is no probe: the circuit stays free for the next one.
    if (c.nextSlot > now) return { result: { send: false, until: c.nextSlot }, next: c };
    const next = { ...c, nextSlot: Math.max(now, c.nextSlot) + 1000 / ratePerS, probeUntil: probe ? now + rules.probeMs : c.probeUntil };
    return { result: { send: true, probe }, next };
  }
  return { result: { send: true, probe }, next: probe ? { ...c, probeUntil: now + rules.probeMs } : c };
}

/** The circuit after an attempt's outcome: a success closes it; a failure counts, and opens it at the threshold. */
export function afterOutcome(c: Circuit, ok: boolean, now: number, rules: CircuitRules): { result: void; next: Circuit } {
  if (ok) return { result: undefined, next: c.failures === 0 && c.probeUntil === 0 ? c : { ...CLOSED_CIRCUIT, nextSlot: c.nextSlot } };
  const failures = c.failures + 1;
  return { result: undefined, next: { ...c, failures, probeUntil: 0, openUntil: failures >= rules.openAfter ? now + rules.cooldownMs : c.openUntil } };
}

/** A probe that ended without an outcome (an error recording it) frees the circuit for the next one. */
export function endProbe(c: Circuit): { result: void; next: Circuit } {
  return { result: undefined, next: c.probeUntil === 0 ? c : { ...c, probeUntil: 0 } };
}
