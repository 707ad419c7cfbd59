// GET /api/workspace: the protocol spec (OpenAPI 3.1) for machines; a contract read, so public.
import { Router } from 'express';
import { baseUrlOf } from '@switchyard/http-kit';
import type { Needs } from '@switchyard/http-kit';

import { openApiDocument } from '../openapi/document.js';

/** What this module uses of the HTTP context: it receives nothing else. */
type Ctx = Needs<'access' | 'apiKeys' | 'publicBaseUrl' | 'tokenUses' | 'tokens'>;

export function workspaceRoutes(ctx: Ctx): Router {
  const router = Router();
  router.get('/api/workspace', ctx.access.requireMove('contract:read'), (req, res) => {
    res.json(openApiDocument(baseUrlOf(req, ctx.publicBaseUrl)));
  });
  return router;
}
