// Carries a trace across processes without core knowing the tracer: a job made in one process
// keeps the request's traceparent, and the process that works it later continues that trace.
export interface TraceCarrier {
  /** The active trace's W3C traceparent; null outside any (or with traces off). */
  current(): string | null;
  /** Runs `fn` as part of the carried trace; as it is when there is none. */
  within<T>(traceparent: string | null, fn: () => Promise<T>): Promise<T>;
}

export const TraceCarrier = Symbol.for('switchyard.TraceCarrier');

/** Traces off: nothing to carry. */
export const NO_TRACES: TraceCarrier = { current: () => null, within: (_traceparent, fn) => fn() };
