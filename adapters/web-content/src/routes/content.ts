// The content routes as one mount: publishing (API key) and the public pages.
import { Router } from 'express';
import type { Needs } from '@switchyard/http-kit';
import { articleRoutes } from './articles.js';
import { pageRoutes } from './pages.js';

/** What this module uses of the HTTP context: it receives nothing else. */
type Ctx = Needs<'access' | 'apiKeys' | 'articles' | 'clock' | 'publicBaseUrl' | 'registry' | 'tokenUses' | 'tokens' | 'workspaces'>;

export const contentRoutes = (ctx: Ctx): Router => Router().use(articleRoutes(ctx), pageRoutes(ctx));
