// Minting: GET /start and GET /api/workspace/<slug>/enter for keyless callers (rate limited per
// client address), POST /api/tokens for the owner. self_scope lives on /api/dispatch.
import { Router, json, type Request, type RequestHandler } from 'express';
import { MOVES, SwitchyardError, type Caveats } from '@switchyard/core';
import { baseUrlOf } from '@switchyard/http-kit';
import type { Needs } from '@switchyard/http-kit';
import { OWNER_MOVES, credentialOf, publicRoute, requireUnspent } from '@switchyard/http-kit';
import { mintLimiter } from '@switchyard/http-kit';
import { minted } from '../token-answers.js';

/** What this module uses of the HTTP context: it receives nothing else. */
type Ctx = Needs<'access' | 'mintPerMinute' | 'rateWindows' | 'apiKeys' | 'publicBaseUrl' | 'registry' | 'tokenUses' | 'tokens' | 'workspaces'>;

const text = (v: unknown, name: string, max = 200): string | null => {
  if (v === undefined) return null;
  if (typeof v !== 'string' || v.length === 0 || v.length > max) throw new SwitchyardError('invalid_request', `${name} must be text of 1 to ${max} characters`);
  return v;
};

export function tokenRoutes(ctx: Ctx): Router {
  const router = Router();
  const limit = mintLimiter(ctx);
  // Keyless minting needs no credential, but one sent along must be good: a bad one is its error.
  const presentedMustBeGood: RequestHandler = async (req, _res, next) => {
    await requireUnspent(ctx, await credentialOf(req, ctx), 'token:mint');
    next();
  };

  router.get('/start', publicRoute('keyless minting: rate limited per client, the public set of keys only'), presentedMustBeGood, limit, async (req, res) => {
    const baseUrl = baseUrlOf(req, ctx.publicBaseUrl);
    const { token, scope } = ctx.tokens.start(text(req.query['actor'], 'actor'));
    res.json({
      ...(await minted(ctx, baseUrl, token, scope)),
      guidance: 'A bounded credential for the capabilities anyone may run. Follow your operator\'s instructions; this token cannot do more than it lists.',
    });
  });

  const knownWorkspace: RequestHandler = (req, _res, next) => {
    const slug = req.params['slug'] as string;
    if (!ctx.workspaces.includes(slug)) throw new SwitchyardError('not_found', `no workspace ${slug}`, { workspaces: ctx.workspaces });
    next();
  };
  const roleOf = (req: Request): string => text(req.query['role'], 'role') ?? 'observer';

  // An observer enters keyless; any other role is the owner's to give.
  const ownerForOtherRoles = ctx.access.requireMove(OWNER_MOVES.mintTokens, { why: 'a role other than observer', applies: (req) => roleOf(req) !== 'observer' });
  router.get('/api/workspace/:slug/enter', presentedMustBeGood, limit, knownWorkspace, ownerForOtherRoles, async (req, res) => {
    const baseUrl = baseUrlOf(req, ctx.publicBaseUrl);
    const slug = req.params['slug'] as string;
    const role = roleOf(req);
    const actor = text(req.query['actor'], 'actor');
    if (role !== 'observer') {
      const { token, scope } = ctx.tokens.mint({ moves: [...MOVES], workspace: slug, role, ...(actor ? { actor } : {}), expires: Math.floor(Date.now() / 1000) + 24 * 3600 });
      res.json(await minted(ctx, baseUrl, token, scope));
      return;
    }
    const { token, scope } = ctx.tokens.observer(slug, actor);
    res.json(await minted(ctx, baseUrl, token, scope));
  });

  // The owner mints any scope: {moves, keys?, actor?, purpose?, workspace?, expires_in_s?, uses?}.
  router.post('/api/tokens', ctx.access.requireMove(OWNER_MOVES.mintTokens), json({ limit: '16kb' }), async (req, res) => {
    const b = (req.body ?? {}) as Record<string, unknown>;
    const allowed = new Set(['moves', 'keys', 'actor', 'purpose', 'workspace', 'expires_in_s', 'uses']);
    const extra = Object.keys(b).filter((k) => !allowed.has(k));
    if (extra.length) throw new SwitchyardError('invalid_request', `unknown field(s) ${extra.join(', ')}`);
    const list = (v: unknown, name: string) => {
      if (!Array.isArray(v) || !v.every((x) => typeof x === 'string' && x.length > 0 && x.length <= 200)) throw new SwitchyardError('invalid_request', `${name} must be a list of names`);
      return v as string[];
    };
    // invoke:<KEY> may name the key in any letter case; the token carries the registered key.
    const moves = list(b['moves'], 'moves').map((m) => (m.startsWith('invoke:') ? `invoke:${ctx.registry.keyOf(m.slice(7)) ?? m.slice(7)}` : m));
    const bad = moves.filter((m) => !(MOVES as readonly string[]).includes(m) && !(m.startsWith('invoke:') && ctx.registry.has(m.slice(7))));
    if (bad.length) throw new SwitchyardError('invalid_request', `unknown move(s) ${bad.join(', ')}`, { moves: [...MOVES, 'invoke:<KEY>'] });
    const expiresIn = b['expires_in_s'] ?? 3600;
    if (!Number.isInteger(expiresIn) || (expiresIn as number) < 1 || (expiresIn as number) > 365 * 24 * 3600) throw new SwitchyardError('invalid_request', 'expires_in_s must be an integer from 1 to 31536000');
    if (b['uses'] !== undefined && (!Number.isInteger(b['uses']) || (b['uses'] as number) < 1)) throw new SwitchyardError('invalid_request', 'uses must be a positive integer');
    const caveats: Caveats = {
      moves,
      ...(b['keys'] !== undefined ? { keys: list(b['keys'], 'keys') } : {}),
      ...(b['actor'] !== undefined ? { actor: text(b['actor'], 'actor')! } : {}),
      ...(b['purpose'] !== undefined ? { purpose: text(b['purpose'], 'purpose')! } : {}),
      ...(b['workspace'] !== undefined ? { workspace: text(b['workspace'], 'workspace')! } : {}),
      expires: Math.floor(Date.now() / 1000) + (expiresIn as number),
      ...(b['uses'] !== undefined ? { uses: b['uses'] as number } : {}),
    };
    const { token, scope } = ctx.tokens.mint(caveats);
    res.status(201).json(await minted(ctx, baseUrlOf(req, ctx.publicBaseUrl), token, scope));
  });

  return router;
}
