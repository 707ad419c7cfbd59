// The owner's approvals: GET /api/approvals lists invocations awaiting approval; POST
// /api/approvals/<inv_id> {decision: "approve" | "deny"} decides one, once. An approval runs the
// invocation's exact arguments as a new, linked invocation.
import { Router, json } from 'express';
import { SwitchyardError } from '@switchyard/core';
import { baseUrlOf } from '@switchyard/http-kit';
import type { Needs } from '@switchyard/http-kit';
import { OWNER_MOVES } from '@switchyard/http-kit';
import { parseLimit } from '../paging.js';
import { runAnswer } from '../presenters.js';
import { statusFor } from '@switchyard/http-kit';

/** What this module uses of the HTTP context: it receives nothing else. */
type Ctx = Needs<'access' | 'apiKeys' | 'approvals' | 'logger' | 'publicBaseUrl' | 'tokenUses' | 'tokens'>;

export function approvalRoutes(ctx: Ctx): Router {
  const router = Router();
  router.use('/api/approvals', ctx.access.requireMove(OWNER_MOVES.decideApprovals));

  router.get('/api/approvals', async (req, res) => {
    const baseUrl = baseUrlOf(req, ctx.publicBaseUrl);
    const items = await ctx.approvals.pending(parseLimit(req.query['limit']));
    res.json({
      ok: true,
      items: items.map((p) => ({
        invocation: p.invocation.id,
        key: p.invocation.key,
        actor: p.invocation.actor,
        fingerprint: p.invocation.fingerprint,
        args: p.invocation.args,
        args_hash: p.args_hash,
        requested_at: p.invocation.created_at,
        expires_at: p.expires_at,
        expired: p.expired,
        decide: `${baseUrl}/api/approvals/${p.invocation.id}`,
      })),
    });
  });

  router.post('/api/approvals/:id', json({ limit: '4kb' }), async (req, res) => {
    const baseUrl = baseUrlOf(req, ctx.publicBaseUrl);
    const decision = (req.body as { decision?: unknown } | undefined)?.decision;
    if (decision !== 'approve' && decision !== 'deny') throw new SwitchyardError('invalid_request', 'send {"decision": "approve"} or {"decision": "deny"}');
    const { approval, run } = await ctx.approvals.decide(req.params['id'] as string, decision, 'owner');
    ctx.logger.info('approval decided', { invocation: approval.invocation, decision: approval.decision, run: approval.run_invocation });
    if (!run) {
      res.json({ ok: true, approval });
      return;
    }
    const error = run.invocation.error;
    res.status(error ? statusFor(error.code) : 200).json({ ...runAnswer(run, baseUrl), approval });
  });
  return router;
}
