// A destination's circuit, kept per process: closed while it answers; open after repeated failures
// (its deliveries wait, without attempts, until the cool-down ends); then probing, one attempt at a
// time, until one succeeds and closes it.

export interface Circuit {
  failures: number;
  openUntil: number;
  probing: boolean;
}

export type CircuitState = 'closed' | 'open' | 'probing';

/** The circuit as a destination's answer shows it: `until` is when an open circuit lets a probe through. */
export interface CircuitView {
  state: CircuitState;
  until: string | null;
  failures: number;
}

export function circuitView(circuit: Circuit | undefined, openAfter: number, now: number): CircuitView {
  if (!circuit || circuit.failures < openAfter) return { state: 'closed', until: null, failures: circuit?.failures ?? 0 };
  if (!circuit.probing && circuit.openUntil > now) return { state: 'open', until: new Date(circuit.openUntil).toISOString(), failures: circuit.failures };
  return { state: 'probing', until: null, failures: circuit.failures };
}
