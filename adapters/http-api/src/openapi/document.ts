// GET /api/workspace: the machine-readable protocol spec, an OpenAPI 3.1 document of every endpoint.
import { paths } from './paths.js';
import { dashboardPaths } from './dashboard-paths.js';
import { upstreamConnectPaths } from './upstream-connect-paths.js';
import { contentPaths } from './content-paths.js';
import { oauthPaths } from './oauth-paths.js';
import { schemas, securitySchemes } from './components.js';

export function openApiDocument(baseUrl: string) {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Switchyard',
      version: '0.1.0',
      summary: 'Capability dispatch, ledger and webhook service',
      description: [
        'One dispatch endpoint runs self-describing capabilities (root > system > key); every run is an invocation in an',
        'append-only, verifiable ledger. Keyless entry points: GET /start, GET /api/workspace/{slug}/enter?role=observer,',
        'GET /api/proven-work, GET /llms.txt, and the ask query. Automated readers follow their operator\'s instructions.',
      ].join(' '),
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    servers: [{ url: baseUrl }],
    externalDocs: { description: 'Entry point for agents: a bounded keyless token with next steps', url: `${baseUrl}/start` },
    tags: ['dispatch', 'mcp', 'ledger', 'webhooks', 'forwarding', 'tokens', 'approvals', 'proofs', 'upstreams', 'content', 'oauth', 'entry points', 'operations', 'dashboard'].map((name) => ({ name })),
    paths: { ...paths, ...contentPaths, ...dashboardPaths, ...oauthPaths, ...upstreamConnectPaths },
    components: { securitySchemes, schemas },
  };
}
