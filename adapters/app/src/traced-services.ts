// With traces on, the composition root wraps the services whose work a trace should show: the
// ledger append of each run, a delivery's intake, each forwarding attempt (which carries its
// traceparent to the destination). Each keeps its type; with traces off nothing is wrapped.
import type { InvocationStore, OutboundSender, TraceCarrier, WebhookIntake } from '@switchyard/core';
import { activeTraceIds, currentTraceparent, inSpan, spanFailed, traceHeaders, withinTraceparent } from '@switchyard/telemetry';

export function traceLedgerAppends<T extends InvocationStore>(store: T): T {
  const append = store.append.bind(store);
  // The run keeps its trace's id (the delivery's, for a forwarding attempt made by a worker).
  store.append = (record) =>
    inSpan('ledger append', 'internal', { 'switchyard.key': record.key, 'switchyard.invocation': record.id }, () => append({ ...record, trace_id: record.trace_id ?? activeTraceIds()?.trace_id ?? null }));
  return store;
}

export function traceIntake(intake: WebhookIntake): WebhookIntake {
  const deliver = intake.deliver.bind(intake);
  intake.deliver = (head, hook, body) =>
    inSpan('webhook intake', 'internal', { 'switchyard.webhook': hook.id }, async (span) => {
      const result = await deliver(head, hook, body);
      span.setAttribute('switchyard.delivery', result.delivery.id);
      span.setAttribute('switchyard.outcome', result.kind);
      return result;
    });
  return intake;
}

/** Each attempt is a client span, and the destination gets its traceparent. */
export function traceForwarding<T extends OutboundSender>(sender: T): T {
  const post = sender.post.bind(sender);
  sender.post = (url, headers, body, timeoutMs) =>
    inSpan('webhook forward', 'client', { 'url.full': url }, async (span) => {
      const outcome = await post(url, { ...headers, ...traceHeaders() }, body, timeoutMs);
      if (outcome.kind === 'answered') span.setAttribute('http.response.status_code', outcome.status);
      if (outcome.kind !== 'answered' || outcome.status >= 300) spanFailed(span, outcome.kind);
      return outcome;
    });
  return sender;
}

/** Forwarding jobs keep the traceparent of the request that made them; a worker's attempt continues it. */
export const traceCarrier: TraceCarrier = { current: currentTraceparent, within: withinTraceparent };
