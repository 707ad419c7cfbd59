// Inbound signatures: the scheme table, each sender's check, and a webhook's setting.
export * from './signature-scheme.js';
export * from './schemes.js';
export * from './verify-signature.js';
export { standardWebhooksKey } from './standard-webhooks.js';
