// HTTP adapter (Express 5): the service's public face.
export { createHttpApp } from './app.js';
export type { HttpContext, HttpLogger } from './context.js';
export { HTTP_STATUS, statusFor } from './status.js';
export { API_KEY_HEADER } from './api-key.js';
export { rawBody } from './raw-body.js';
export { deliveryRecord } from './routes/hooks.js';
export { QUERY_VERBS, type QueryVerb } from './routes/dispatch.js';
