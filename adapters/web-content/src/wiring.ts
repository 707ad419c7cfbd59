// The content site's wiring: its articles, pages and downloads, and the face they add.
import { coreServices } from '@switchyard/core';
import { faceDeps, httpServices } from '@switchyard/http-kit';
import { createServiceFactory, definePackage } from '@switchyard/wiring';
import { contentRoutes } from './routes/content.js';

export const webContentWiring = definePackage('web-content', [
  createServiceFactory({
    service: httpServices.face,
    deps: {
      ...faceDeps,
      registry: coreServices.registry,
      articles: coreServices.articles,
      clock: coreServices.clock,
    },
    factory: ({ options, ...services }) => ({ id: 'web-content', router: contentRoutes({ ...services, ...options }) }),
  }),
]);
