// The public content site: pages, articles, downloads, llms.txt.
export { contentRoutes } from './routes/content.js';
export { webContentWiring } from './wiring.js';
