// The content routes as one mount: publishing (API key) and the public pages.
import { Router } from 'express';
import type { HttpContext } from '../context.js';
import { articleRoutes } from './articles.js';
import { pageRoutes } from './pages.js';

export const contentRoutes = (ctx: HttpContext): Router => Router().use(articleRoutes(ctx), pageRoutes(ctx));
