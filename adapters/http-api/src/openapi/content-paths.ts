// The content pages and downloads in the OpenAPI document: public reads, no credential resolved.
import { errors, htmlPage, json, ownerOnly, pathParam, publicOnly, credentialErrors } from './components.js';

const text = (type: string, description: string) => ({ description, content: { [type]: { schema: { type: 'string' } } } });
// A 404 comes in the format asked: markdown for a .md address, an HTML page otherwise.
const notFound = (description: string) => ({ description, content: { 'text/html': { schema: { type: 'string' } }, 'text/markdown': { schema: { type: 'string' } } } });
const read = (operationId: string, summary: string, responses: Record<string, unknown>, parameters: unknown[] = []) => ({ operationId, tags: ['content'], summary, security: publicOnly, parameters, responses });

export const contentPaths = {
  '/': { get: read('home', 'The home page: articles newest first, tags, guidance for automated readers', { '200': htmlPage('The home page') }) },
  '/tags': { get: read('tags', 'Every tag with its count', { '200': htmlPage('The tag index') }) },
  '/tags/{name}': {
    get: read(
      'tagPage',
      'Everything tagged <tag>: `<tag>` (HTML), `<tag>.md`, `<tag>.json` (manifest) or `<tag>.zip` (the folder)',
      {
        '200': { description: 'The page, its markdown, its manifest or its zip', content: { 'text/html': { schema: { type: 'string' } }, 'text/markdown': { schema: { type: 'string' } }, 'application/json': { schema: { type: 'object' } }, 'application/zip': { schema: { type: 'string', format: 'binary' } } } },
        '404': { description: 'Unknown tag: a page, markdown for .md, JSON not_found for .json and .zip', content: { 'text/html': { schema: { type: 'string' } }, 'text/markdown': { schema: { type: 'string' } }, 'application/json': { schema: { type: 'object' } } } },
      },
      [pathParam('name', 'A tag, optionally with .md, .json or .zip')],
    ),
  },
  '/tags/{tag}/all.md': { get: read('tagAllMarkdown', "A tag's articles as one markdown file", { '200': text('text/markdown', 'Every article of the tag'), '404': text('text/markdown', 'Unknown tag, in markdown') }, [pathParam('tag', 'A tag')]) },
  '/articles/{name}': { get: read('article', 'An article: `<slug>` (HTML) or `<slug>.md`', { '200': { description: 'The article', content: { 'text/html': { schema: { type: 'string' } }, 'text/markdown': { schema: { type: 'string' } } } }, '404': notFound('Unknown article (markdown for .md)') }, [pathParam('name', 'A slug, optionally with .md')]) },
  '/systems/{name}': { get: read('systemPage', "A system's article from the registry: `<SYSTEM>` (HTML) or `<SYSTEM>.md`", { '200': { description: 'The system article', content: { 'text/html': { schema: { type: 'string' } }, 'text/markdown': { schema: { type: 'string' } } } }, '404': notFound('Unknown system (markdown for .md)') }, [pathParam('name', 'A system, optionally with .md')]) },
  '/site.zip': { get: read('siteZip', 'The whole site as a zip (articles, systems, llms.txt)', { '200': { description: 'A zip archive', content: { 'application/zip': { schema: { type: 'string', format: 'binary' } } } } }) },
  '/llms.txt': { get: read('llmsTxt', 'Site map for models (llmstxt.org format)', { '200': text('text/plain', 'The llms.txt') }) },
  '/assets/pages.css': { get: read('pagesStyle', 'The content pages\' stylesheet', { '200': text('text/css', 'The stylesheet') }) },
  '/api/articles': {
    post: {
      operationId: 'publishArticle', tags: ['content'], summary: 'Publish an article (front matter + markdown, or the fields: title, tags and body are enough)', security: ownerOnly,
      requestBody: { required: true, content: { 'application/json': { schema: { oneOf: [
        { type: 'object', properties: { markdown: { type: 'string' }, replace: { type: 'boolean' } }, required: ['markdown'], additionalProperties: false },
        {
          type: 'object',
          properties: {
            slug: { type: 'string', description: 'default: made from the title' },
            title: { type: 'string' },
            tags: { type: 'array', items: { type: 'string' } },
            date: { type: 'string', description: "default: today's UTC date" },
            summary: { type: 'string', description: "default: the body's first paragraph" },
            body: { type: 'string' },
            replace: { type: 'boolean' },
          },
          required: ['title', 'tags', 'body'],
          additionalProperties: false,
        },
      ] } } } },
      responses: { '201': json('Published'), '200': json('Replaced (replace: true)'), ...errors([400, 'invalid_request'], [409, 'article_exists'], [422, 'invalid_article']), ...credentialErrors },
    },
  },
} as const;
