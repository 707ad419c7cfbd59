// The OAuth face's wiring: the authorization server's endpoints, consent and management, and the face they add.
import { coreServices } from '@switchyard/core';
import { httpServices } from '@switchyard/http-kit';
import { createServiceFactory, definePackage } from '@switchyard/wiring';
import { oauthRoutes } from './routes.js';

export const httpOAuthWiring = definePackage('http-oauth', [
  createServiceFactory({
    service: httpServices.face,
    deps: {
      options: httpServices.options,
      access: httpServices.access,
      logger: httpServices.logger,
      oauth: coreServices.oauth,
      registry: coreServices.registry,
      upstreams: coreServices.upstreams,
      tokens: coreServices.tokens,
      apiKeys: coreServices.apiKeys,
      tokenUses: coreServices.tokenUses,
    },
    factory: ({ options, ...services }) => ({ id: 'http-oauth', router: oauthRoutes({ ...services, ...options }) }),
  }),
]);
