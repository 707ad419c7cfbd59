// Ledger reads of invocations: by capability key, paged by the ledger listings' rule within the
// byte budget (newest first, or in append order), and one by id. Each record is shown as the
// access policy lets the credential see it: whole to its owner, else only its public (Merkle leaf) fields.
import { Router } from 'express';
import { INVOCATION_ID, KEY_PATTERN, SwitchyardError, blobRefsOf, canonicalKey, fillPage, invocationView, requireOwnInvocation, type LedgerPageRequest } from '@switchyard/core';
import { credentialOf } from '@switchyard/http-kit';
import type { Needs } from '@switchyard/http-kit';
import { ORDER_NAMES, envelopeBytes, parseLedgerPage, writePage } from '../paging.js';

/** What this module uses of the HTTP context: it receives nothing else. */
type Ctx = Needs<'access' | 'apiKeys' | 'blobs' | 'invocations' | 'pageBytes' | 'tokenUses' | 'tokens'>;

export function invocationRoutes(ctx: Ctx): Router {
  const router = Router();
  router.use('/api/invocations', ctx.access.requireMove('ledger:read'));

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

  // A large binary part of a run's content, stored once and named by its SHA-256 in the record:
  // served to whoever may read that run's private fields, and only as a part of that run.
  router.get('/api/invocations/:id/blobs/:sha256', async (req, res) => {
    const id = req.params['id']!;
    const sha256 = req.params['sha256']!;
    if (!INVOCATION_ID.test(id)) throw new SwitchyardError('invalid_request', 'an invocation id looks like inv_…');
    if (!/^[0-9a-f]{64}$/.test(sha256)) throw new SwitchyardError('invalid_request', 'a blob is named by the 64 hex digits of its SHA-256');
    const invocation = requireOwnInvocation(await credentialOf(req, ctx), await ctx.invocations.get(id), id);
    const blob = blobRefsOf(invocation.content).some((r) => r.sha256 === sha256) ? await ctx.blobs.get(sha256) : undefined;
    if (!blob) throw new SwitchyardError('not_found', `invocation ${id} has no blob ${sha256}`, { id, sha256 });
    res.set('content-type', blob.mimeType ?? 'application/octet-stream').set('cache-control', 'private, max-age=31536000, immutable').send(blob.bytes);
  });

  return router;
}
