// Traces: OpenTelemetry, off unless an OTLP endpoint is configured by the standard variables
// (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT; OTEL_SDK_DISABLED=true or
// OTEL_TRACES_EXPORTER=none turn it off). The Node SDK reads every other OTEL_* setting itself
// (service name, protocol, headers, sampler, batch delays). Spans are made here and named by what
// they cover; the adapters call these helpers, so no other package imports OpenTelemetry.
import type { EventEmitter } from 'node:events';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, propagation, trace, type Context, type Span } from '@opentelemetry/api';

const TRACER = 'switchyard';

/** Whether the environment asks for traces. */
export function tracingConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env['OTEL_SDK_DISABLED'] === 'true' || env['OTEL_TRACES_EXPORTER'] === 'none') return false;
  return Boolean(env['OTEL_EXPORTER_OTLP_ENDPOINT'] || env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT']);
}

export interface Tracing {
  /** Sends the spans still buffered and stops. */
  shutdown(): Promise<void>;
}

/** Starts the Node SDK (OTLP exporter, W3C trace context) when configured; null when not. */
export async function startTracing(env: NodeJS.ProcessEnv = process.env): Promise<Tracing | null> {
  if (!tracingConfigured(env)) return null;
  // Loaded only when asked for: a service without traces never pays for the SDK.
  const { NodeSDK } = await import('@opentelemetry/sdk-node');
  const sdk = new NodeSDK({ instrumentations: [] });
  sdk.start();
  return { shutdown: () => sdk.shutdown() };
}

const tracer = () => trace.getTracer(TRACER);

/** The trace and span ids of the active span, for log lines; null outside any. */
export function activeTraceIds(): { trace_id: string; span_id: string } | null {
  const span = trace.getActiveSpan();
  if (!span) return null;
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

/** The W3C trace context of the active span as headers (traceparent, tracestate); empty outside any. */
export function traceHeaders(): Record<string, string> {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier;
}

/** Runs `fn` in a new span, a child of the active one; an error thrown ends it as failed. */
export async function inSpan<T>(name: string, kind: 'internal' | 'client', attributes: Record<string, string | number | boolean>, fn: (span: Span) => Promise<T>): Promise<T> {
  return tracer().startActiveSpan(name, { kind: kind === 'client' ? SpanKind.CLIENT : SpanKind.INTERNAL, attributes }, async (span) => {
    try {
      return await fn(span);
    } catch (err) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
      throw err;
    } finally {
      span.end();
    }
  });
}

/** Marks a span failed without an exception (an answer that says it failed). */
export function spanFailed(span: Span, message: string): void {
  span.setStatus({ code: SpanStatusCode.ERROR, message });
}

/** An HTTP request's span: continued from the caller's traceparent, active for all the request causes. */
export interface ServerSpan {
  /** Listeners added to `emitter` from now on run inside the span (a request's body events, a response's close). */
  bind(emitter: EventEmitter): void;
  run<A extends unknown[], R>(fn: (...args: A) => R, ...args: A): R;
  end(route: string, status: number): void;
}

export function startServerSpan(method: string, path: string, headers: Record<string, string | string[] | undefined>): ServerSpan {
  const parent: Context = propagation.extract(ROOT_CONTEXT, headers);
  const span = tracer().startSpan(method, { kind: SpanKind.SERVER, attributes: { 'http.request.method': method, 'url.path': path } }, parent);
  const active = trace.setSpan(parent, span);
  return {
    bind: (emitter) => void context.bind(active, emitter),
    run: (fn, ...args) => context.with(active, fn, undefined, ...args),
    end: (route, status) => {
      span.updateName(`${method} ${route}`);
      span.setAttribute('http.route', route);
      span.setAttribute('http.response.status_code', status);
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    },
  };
}

/** The active span's traceparent, null outside any: kept with work another process will do. */
export function currentTraceparent(): string | null {
  return traceHeaders()['traceparent'] ?? null;
}

/** Runs `fn` in the trace a kept traceparent names (its spans become that span's children). */
export function withinTraceparent<T>(traceparent: string | null, fn: () => Promise<T>): Promise<T> {
  if (!traceparent) return fn();
  return context.with(propagation.extract(ROOT_CONTEXT, { traceparent }), fn);
}
