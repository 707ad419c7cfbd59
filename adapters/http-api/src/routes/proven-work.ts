// /api/proven-work: everything an outside auditor needs to re-verify the whole log, with no
// credential — the latest signed checkpoint, leaves in tree order, consistency proofs between two
// sizes — and /api/proven-work/key, the verifier key to pin.
import { Router } from 'express';
import { SwitchyardError } from '@switchyard/core';
import { baseUrlOf } from '@switchyard/http-kit';
import type { Needs } from '@switchyard/http-kit';
import { parseLimit } from '../paging.js';

/** What this module uses of the HTTP context: it receives nothing else. */
type Ctx = Needs<'access' | 'apiKeys' | 'ledger' | 'publicBaseUrl' | 'tokenUses' | 'tokens'>;

const b64 = (b: Uint8Array) => Buffer.from(b).toString('base64');

const size = (value: unknown, name: string): number | undefined => {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^[0-9]{1,15}$/.test(value)) throw new SwitchyardError('invalid_request', `${name} must be a tree size (an integer)`);
  return Number(value);
};

export function provenWorkRoutes(ctx: Ctx): Router {
  const router = Router();

  router.get('/api/proven-work/key', ctx.access.requireMove('confirm:read'), (req, res) => {
    if (req.query['format'] === 'text') {
      res.type('text/plain; charset=utf-8').send(`${ctx.ledger.verifierKey}\n`);
      return;
    }
    res.json({ ok: true, origin: ctx.ledger.origin, verifier_key: ctx.ledger.verifierKey, algorithm: 'ed25519', format: 'c2sp.org/signed-note' });
  });

  router.get('/api/proven-work', ctx.access.requireMove('confirm:read'), async (req, res) => {
    const baseUrl = baseUrlOf(req, ctx.publicBaseUrl);
    const from = size(req.query['from'], 'from') ?? 0;
    const limit = req.query['limit'] === undefined ? 100 : parseLimit(req.query['limit']);
    const fromSize = size(req.query['from_size'], 'from_size');
    const toSize = size(req.query['to_size'], 'to_size');
    const latest = await ctx.ledger.latestCheckpoint();
    const treeSize = latest?.size ?? 0;

    let consistency: Record<string, unknown> | null = null;
    if (fromSize !== undefined || toSize !== undefined) {
      const to = toSize ?? treeSize;
      if (fromSize === undefined || fromSize < 1 || fromSize > to || to > treeSize) {
        throw new SwitchyardError('invalid_request', `consistency needs 1 <= from_size <= to_size <= ${treeSize} (the latest checkpoint's size)`);
      }
      const [older, newer] = [await ctx.ledger.checkpointAt(fromSize), await ctx.ledger.checkpointAt(to)];
      consistency = {
        from_size: fromSize,
        to_size: to,
        proof: (await ctx.ledger.consistencyProof(fromSize, to)).map(b64),
        // The signed checkpoints at those sizes, when the log signed one there.
        from_checkpoint: older?.note ?? null,
        to_checkpoint: newer?.note ?? null,
      };
    }
    const leaves = from < treeSize ? (await ctx.ledger.leaves(from, limit)).filter((l) => l.index < treeSize) : [];
    const next = leaves.length > 0 && leaves[leaves.length - 1]!.index + 1 < treeSize ? leaves[leaves.length - 1]!.index + 1 : null;
    res.json({
      ok: true,
      origin: ctx.ledger.origin,
      verifier_key: ctx.ledger.verifierKey,
      checkpoint: latest ? { size: latest.size, root: latest.root, note: latest.note, created_at: latest.created_at } : null,
      leaves: leaves.map((l) => ({ index: l.index, kind: l.kind, id: l.entry_id, leaf: l.leaf, leaf_hash: l.leaf_hash, confirm: `${baseUrl}/api/dispatch?confirm=${l.entry_id}` })),
      next: next === null ? null : `${baseUrl}/api/proven-work?from=${next}&limit=${limit}`,
      consistency,
    });
  });

  return router;
}
