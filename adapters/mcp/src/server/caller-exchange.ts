// What a stateless MCP server face needs to talk back to its caller across HTTP requests: the
// caller's declared capabilities (carried in the session id it was given at initialize: session-ids.ts), the
// questions we asked it (elicitation, sampling) awaiting an answer that arrives in a later POST,
// and the calls in flight that a later notifications/cancelled withdraws. One per process.
import { randomBytes } from 'node:crypto';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

export { capabilitiesOf, NO_CALLER_CAPABILITIES, type CallerCapabilities } from './session-ids.js';

type Message = { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown; result?: unknown; error?: unknown };
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether a POST body is the initialize request. */
export const isInitialize = (body: unknown): body is Message => isObject(body) && body['method'] === 'initialize';

interface Pending {
  /** Only the session asked may answer (undefined: a caller without one). */
  sessionId: string | undefined;
  resolve(result: Record<string, unknown>): void;
  reject(error: Error): void;
}

export class CallerExchange {
  private readonly pending = new Map<string, Pending>();
  private readonly running = new Map<string, AbortController>();

  /**
   * Asks the caller (elicitation/create, sampling/createMessage) on the response stream of its
   * request `relatedRequestId`; resolves with the result it POSTs back. Our ids are unique per
   * process, so an answer finds its question whichever request carries it.
   */
  ask(transport: Transport, sessionId: string | undefined, relatedRequestId: string | number, method: string, params: Record<string, unknown>, signal: AbortSignal): Promise<Record<string, unknown>> {
    const id = `sy-${randomBytes(12).toString('hex')}`;
    return new Promise<Record<string, unknown>>((resolve, reject) => {
      const done = () => {
        this.pending.delete(id);
        signal.removeEventListener('abort', onAbort);
      };
      const onAbort = () => {
        done();
        reject(new Error(`the call was withdrawn before the caller answered ${method}`));
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, {
        sessionId,
        resolve: (r) => (done(), resolve(r)),
        reject: (e) => (done(), reject(e)),
      });
      transport.send({ jsonrpc: '2.0', id, method, params } as never, { relatedRequestId }).catch((err: Error) => this.pending.get(id)?.reject(err));
    });
  }

  /** Registers a call in flight under its caller's session; returns what to call when it ends. */
  track(sessionId: string, requestId: string | number, controller: AbortController): () => void {
    const key = `${sessionId} ${String(requestId)}`;
    this.running.set(key, controller);
    return () => {
      if (this.running.get(key) === controller) this.running.delete(key);
    };
  }

  /**
   * Takes a POST body that only answers our questions or withdraws calls in flight: true when
   * every message in it was one of those (the route answers 202 and no server is built).
   */
  intercept(body: unknown, sessionId: string | undefined): boolean {
    const messages = Array.isArray(body) ? body : [body];
    if (messages.length === 0 || !messages.every((m) => this.isOurs(m, sessionId))) return false;
    for (const m of messages as Message[]) {
      if (m.method === 'notifications/cancelled') {
        this.running.get(`${sessionId} ${String((m.params as Record<string, unknown>)['requestId'])}`)?.abort();
        continue;
      }
      const waiting = this.pending.get(m.id as string)!;
      if (isObject(m.error)) waiting.reject(new Error(`the caller answered with an error: ${String(m.error['message'] ?? '')}`));
      else waiting.resolve(isObject(m.result) ? m.result : {});
    }
    return true;
  }

  private isOurs(m: unknown, sessionId: string | undefined): boolean {
    if (!isObject(m)) return false;
    if (m['method'] === 'notifications/cancelled') {
      const params = m['params'];
      return sessionId !== undefined && isObject(params) && this.running.has(`${sessionId} ${String(params['requestId'])}`);
    }
    const waiting = typeof m['id'] === 'string' ? this.pending.get(m['id']) : undefined;
    return m['method'] === undefined && waiting !== undefined && waiting.sessionId === sessionId && ('result' in m || 'error' in m);
  }
}
