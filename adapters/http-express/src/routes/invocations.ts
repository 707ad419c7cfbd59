// Ledger reads of invocations: by capability key, paged by the ledger listings' rule within the
// byte budget (newest first, or in append order), and one by id.
import { Router } from 'express';
import { INVOCATION_ID, KEY_PATTERN, SwitchyardError, fillPage, type LedgerPageRequest } from '@switchyard/core';
import { needs } from '../credentials.js';
import type { HttpContext } from '../context.js';
import { ORDER_NAMES, envelopeBytes, parseLedgerPage, writePage } from '../paging.js';

export function invocationRoutes(ctx: HttpContext): Router {
  const router = Router();
  router.use('/api/invocations', needs(ctx, 'ledger:read'));

  router.get('/api/invocations', async (req, res) => {
    const objectId = req.query['object_id'];
    if (typeof objectId !== 'string' || !KEY_PATTERN.test(objectId)) {
      throw new SwitchyardError('invalid_request', 'object_id must be a capability key, e.g. ?object_id=MESSAGING_UPDATE_GROUP');
    }
    const request = parseLedgerPage(req.query);
    const head = { ok: true, object_id: objectId, order: ORDER_NAMES[request.order] };
    const page = await fillPage((r: LedgerPageRequest) => ctx.invocations.list({ ...r, key: objectId }), request, (i) => JSON.stringify(i), ctx.pageBytes - envelopeBytes(head));
    writePage(res, head, page);
  });

  router.get('/api/invocations/:id', async (req, res) => {
    const id = req.params['id']!;
    if (!INVOCATION_ID.test(id)) throw new SwitchyardError('invalid_request', 'an invocation id looks like inv_…');
    const invocation = await ctx.invocations.get(id);
    if (!invocation) throw new SwitchyardError('invocation_not_found', `no invocation ${id}`, { id });
    // The lineage upward: what this one repairs, and what that one repairs, to the first failure.
    const lineage: string[] = [];
    let cursor = invocation.repairs;
    while (cursor && lineage.length < 100) {
      lineage.push(cursor);
      cursor = (await ctx.invocations.get(cursor))?.repairs ?? null;
    }
    res.json({ ok: true, invocation, lineage: { repairs_chain: lineage, repaired_by: invocation.repaired_by } });
  });

  return router;
}
