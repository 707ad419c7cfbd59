// Ledger reads of invocations: by capability key, paged by the ledger listings' rule within the
// byte budget (newest first, or in append order), and one by id. Each record is shown as the
// access policy lets the credential see it: whole to its owner, else only its public (Merkle leaf) fields.
import { Router } from 'express';
import { INVOCATION_ID, KEY_PATTERN, SwitchyardError, canonicalKey, fillPage, invocationView, type LedgerPageRequest } from '@switchyard/core';
import { credentialOf, needs } from '../credentials.js';
import type { HttpContext } from '../context.js';
import { ORDER_NAMES, envelopeBytes, parseLedgerPage, writePage } from '../paging.js';

export function invocationRoutes(ctx: HttpContext): Router {
  const router = Router();
  router.use('/api/invocations', needs(ctx, 'ledger:read'));

  router.get('/api/invocations', async (req, res) => {
    const named = req.query['object_id'];
    // A key matches in any letter case; the ledger keeps (and the answer names) the upper-case key.
    const objectId = typeof named === 'string' ? canonicalKey(named) : undefined;
    if (objectId === undefined || !KEY_PATTERN.test(objectId)) {
      throw new SwitchyardError('invalid_request', 'object_id must be a capability key, e.g. ?object_id=MESSAGING_UPDATE_GROUP');
    }
    const request = parseLedgerPage(req.query);
    const cred = await credentialOf(req, ctx);
    const head = { ok: true, object_id: objectId, order: ORDER_NAMES[request.order] };
    // Each record is measured against the budget as it is shown.
    const page = await fillPage((r: LedgerPageRequest) => ctx.invocations.list({ ...r, key: objectId }), request, (i) => JSON.stringify(invocationView(cred, i)), ctx.pageBytes - envelopeBytes(head));
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
    res.json({ ok: true, invocation: invocationView(await credentialOf(req, ctx), invocation), lineage: { repairs_chain: lineage, repaired_by: invocation.repaired_by } });
  });

  return router;
}
