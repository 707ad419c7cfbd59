// Content pages: articles and their tags.
// Other folders import this concept from here, never from a file inside it.
export * from './article.js';
export * from './tag-index.js';
export * from './ports.js';
