// The OAuth face's wiring: the authorization server's endpoints, consent and management, and the face they add.
import { coreServices } from '@switchyard/core';
import { faceDeps, httpServices } from '@switchyard/http-kit';
import { createServiceFactory, definePackage } from '@switchyard/wiring';
import { oauthRoutes } from './routes.js';

export const httpOAuthWiring = definePackage('http-oauth', [
  createServiceFactory({
    service: httpServices.face,
    deps: {
      ...faceDeps,
      oauth: coreServices.oauth,
      registry: coreServices.registry,
      upstreams: coreServices.upstreams,
    },
    factory: ({ options, ...services }) => ({ id: 'http-oauth', router: oauthRoutes({ ...services, ...options }) }),
  }),
]);
