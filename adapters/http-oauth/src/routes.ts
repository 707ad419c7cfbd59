// OAuth 2.1 for the MCP faces, as HTTP: metadata, registration and token endpoints, consent under
// /dashboard, and the owner's management routes.
import { Router } from 'express';
import type { Needs } from '@switchyard/http-kit';
import { consentRoutes } from './consent-routes.js';
import { oauthEndpointRoutes } from './endpoint-routes.js';
import { oauthManagementRoutes } from './management-routes.js';

type Ctx = Parameters<typeof oauthEndpointRoutes>[0] & Parameters<typeof consentRoutes>[0] & Parameters<typeof oauthManagementRoutes>[0] & Needs<'oauth'>;

export function oauthRoutes(ctx: Ctx): Router {
  const router = Router();
  router.use(oauthEndpointRoutes(ctx));
  router.use(consentRoutes(ctx));
  router.use(oauthManagementRoutes(ctx));
  return router;
}
