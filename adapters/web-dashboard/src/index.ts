// The owner's web dashboard under /dashboard.
export { dashboardRoutes } from './routes.js';
export { CONNECT_COOKIE, CONNECT_COOKIE_PATH, upstreamConnectRoutes } from './upstream-connect.js';
export { webDashboardWiring } from './wiring.js';
