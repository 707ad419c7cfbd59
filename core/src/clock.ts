// The clock port.

export interface Clock {
  now(): Date;
}
export const Clock = Symbol.for('switchyard.Clock');
export const systemClock: Clock = { now: () => new Date() };
