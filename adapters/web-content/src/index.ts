// The public content site: pages, articles, downloads, llms.txt.
export { contentRoutes } from './routes/content.js';
