// Imported tools held for the owner's review (a definition changed upstream, a new tool on a known
// server, a tool gone): list them, read one's difference from its pin, approve its new definition.
// Approving pins the hash in the ledger and serves the tool; nothing else changes a pin.
import { Router, json } from 'express';
import { DEFINITION_HASH_PATTERN, SwitchyardError, type HeldTool } from '@switchyard/core';
import { OWNER_MOVES, baseUrlOf } from '@switchyard/http-kit';
import type { Needs } from '@switchyard/http-kit';

/** What this module uses of the HTTP context: it receives nothing else. */
type Ctx = Needs<'access' | 'apiKeys' | 'logger' | 'publicBaseUrl' | 'tokenUses' | 'tokens' | 'upstreams'>;

const links = (baseUrl: string, key: string) => ({ changes: `${baseUrl}/api/tools/${key}/changes`, approve: `${baseUrl}/api/tools/${key}/approve` });

/** A hold as listed: the definitions' hashes, not their text (the changes route has that). */
const summary = (h: HeldTool, baseUrl: string) => ({
  key: h.key,
  server: h.server,
  tool: h.tool,
  reason: h.reason,
  pinned_hash: h.pinned?.definition_hash ?? null,
  listed_hash: h.listed?.definition_hash ?? null,
  held_since: h.held_since,
  changes_in_a_row: h.changes_in_a_row,
  ...links(baseUrl, h.key),
});

export function toolRoutes(ctx: Ctx): Router {
  const router = Router();
  router.use('/api/tools', ctx.access.requireMove(OWNER_MOVES.manageUpstreams));

  router.get('/api/tools/held', (req, res) => {
    const baseUrl = baseUrlOf(req, ctx.publicBaseUrl);
    const { tools, omitted } = ctx.upstreams.held();
    res.json({ ok: true, items: tools.map((h) => summary(h, baseUrl)), omitted });
  });

  router.get('/api/tools/:key/changes', (req, res) => {
    const baseUrl = baseUrlOf(req, ctx.publicBaseUrl);
    const c = ctx.upstreams.changes(req.params['key']!);
    res.json({ ok: true, ...summary(c, baseUrl), pinned_at: c.pinned?.pinned_at ?? null, flapping: c.flapping, before: c.before, after: c.after, diff: c.diff });
  });

  router.post('/api/tools/:key/approve', json({ limit: '4kb' }), async (req, res) => {
    const baseUrl = baseUrlOf(req, ctx.publicBaseUrl);
    const hash = (req.body as { hash?: unknown } | undefined)?.hash;
    if (typeof hash !== 'string' || !DEFINITION_HASH_PATTERN.test(hash)) throw new SwitchyardError('invalid_request', 'send {"hash": "sha256:<64 hex>"}: the listed_hash of GET /api/tools/<key>/changes', { field: 'hash' });
    const pin = await ctx.upstreams.approve(req.params['key']!, hash, 'owner');
    ctx.logger.info('tool definition approved', { key: pin.key, definition_hash: pin.definition_hash, pin: pin.id });
    res.json({ ok: true, pin: { id: pin.id, key: pin.key, server: pin.server, tool: pin.tool, definition_hash: pin.definition_hash, reason: pin.reason, pinned_at: pin.pinned_at }, confirm: `${baseUrl}/api/dispatch?confirm=${pin.id}` });
  });

  return router;
}
