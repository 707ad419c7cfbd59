// GET /api/workspace: the protocol spec (OpenAPI 3.1) for machines; a contract read, so public.
import { Router } from 'express';
import { baseUrlOf } from '../base-url.js';
import type { HttpContext } from '../context.js';
import { needs } from '../credentials.js';
import { openApiDocument } from '../openapi/document.js';

export function workspaceRoutes(ctx: HttpContext): Router {
  const router = Router();
  router.get('/api/workspace', needs(ctx, 'contract:read'), (req, res) => {
    res.json(openApiDocument(baseUrlOf(req, ctx.publicBaseUrl)));
  });
  return router;
}
