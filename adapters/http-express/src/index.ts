// HTTP adapter (Express 5): the service's public face.
export { createHttpApp } from './app.js';
export type { HttpContext, HttpLogger } from './context.js';
export { HTTP_STATUS, statusFor } from './status.js';
export { API_KEY_HEADER } from './api-key.js';
export { readBody } from './raw-body.js';
export { deliveryHead } from './routes/hooks.js';
export { createHttpServer, type ServerLimits } from './server.js';
export type { RequestLimits } from './request-gate.js';
