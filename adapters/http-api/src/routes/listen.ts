// `switchyard listen`: a webhook's new deliveries as server-sent events, whole (method, path,
// headers and body bytes), so a developer's machine can replay each to a local server. Read from
// the database, so every process's deliveries show; each event's id is its ledger position, so a
// client that reconnects with Last-Event-ID (or ?after=) misses nothing. A client that goes away
// stops its poll at once; a slow one is not read ahead of (the next poll waits for the socket).
import { Router } from 'express';
import { SwitchyardError, webhookLogName, type StoredDelivery } from '@switchyard/core';
import { OWNER_MOVES } from '@switchyard/http-kit';
import type { Needs } from '@switchyard/http-kit';

type Ctx = Needs<'access' | 'apiKeys' | 'deliveries' | 'logger' | 'tokenUses' | 'tokens' | 'webhooks'>;

/** How often an open stream looks for new deliveries. */
export const LISTEN_POLL_MS = 250;
/** Deliveries read per poll (each is sent before the next poll). */
const LISTEN_BATCH = 20;
/** Bodies up to this size come with the listing; larger ones are read one by one. */
const LISTEN_INLINE_BYTES = 256 * 1024;
/** Open listen streams per process: past it, 429 session_limit. */
export const MAX_LISTEN_STREAMS = 32;
const KEEP_ALIVE_MS = 15_000;

/** One delivery as a listen event: enough to replay it byte for byte. */
const listenEvent = (d: StoredDelivery) => ({
  entry: d.id,
  seq: d.seq,
  received_at: d.received_at,
  method: d.method,
  path: d.path,
  query: d.query,
  event_type: d.event_type,
  headers: d.headers,
  body_base64: d.body ? Buffer.from(d.body).toString('base64') : '',
});

function readAfter(value: unknown): number | null {
  if (value === undefined) return null;
  if (typeof value !== 'string' || !/^\d{1,15}$/.test(value)) throw new SwitchyardError('invalid_request', 'after must be a ledger position (the id of an earlier event)', { field: 'after' });
  return Number(value);
}

export function listenRoutes(ctx: Ctx): Router {
  const router = Router();
  let open = 0;

  router.get('/api/objects/webhook/:id/listen', ctx.access.requireMove(OWNER_MOVES.manageWebhooks), async (req, res) => {
    const hookId = req.params['id'] as string;
    if (!(await ctx.webhooks.get(hookId))) throw new SwitchyardError('webhook_not_found', `no webhook ${hookId}`);
    const resumeFrom = readAfter(req.query['after'] ?? req.get('last-event-id'));
    if (open >= MAX_LISTEN_STREAMS) throw new SwitchyardError('session_limit', `this process serves ${MAX_LISTEN_STREAMS} listen streams already; close one or try another process`, { limit: MAX_LISTEN_STREAMS });
    // No position given: only deliveries from now on.
    let after = resumeFrom ?? (await ctx.deliveries.list({ hookId, order: 'newest', cursor: null, limit: 1, inlineBodyBytes: 0 })).items[0]?.seq ?? 0;
    open += 1;
    let closed = false;
    let timer: NodeJS.Timeout | undefined;
    const stop = (): void => {
      if (closed) return;
      closed = true;
      open -= 1;
      clearTimeout(timer);
      clearInterval(keepAlive);
    };
    req.on('close', stop);
    res.on('close', stop);
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive', 'x-accel-buffering': 'no' });
    res.write(`retry: 1000\nevent: ready\ndata: ${JSON.stringify({ hook: hookId, after })}\n\n`);
    const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
    /** Writes an event; resolves once the socket can take more (a slow client holds the next poll back). */
    const send = (text: string): Promise<void> => (res.write(text) || closed ? Promise.resolve() : new Promise((resolve) => {
      const done = () => { res.off('drain', done); res.off('close', done); resolve(); };
      res.on('drain', done);
      res.on('close', done);
    }));
    const poll = async (): Promise<void> => {
      try {
        const page = await ctx.deliveries.list({ hookId, order: 'append', cursor: after > 0 ? String(after) : null, limit: LISTEN_BATCH, inlineBodyBytes: LISTEN_INLINE_BYTES });
        for (const listed of page.items) {
          if (closed) return;
          // What forwarding would send on: accepted, first deliveries (no refusals, no duplicates).
          if (listed.outcome === 'accepted' && !listed.duplicate) {
            const d = listed.body_omitted ? ((await ctx.deliveries.get(listed.id)) ?? listed) : listed;
            await send(`id: ${d.seq}\nevent: delivery\ndata: ${JSON.stringify(listenEvent(d))}\n\n`);
          }
          after = listed.seq;
        }
      } catch (err) {
        ctx.logger.warn('listen poll failed; trying again', { hook: webhookLogName(hookId), error: (err as Error).message });
      }
      if (!closed) timer = setTimeout(() => void poll(), LISTEN_POLL_MS);
    };
    await poll();
  });

  return router;
}
