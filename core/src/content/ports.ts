// What the content pages need from the outside world: where articles are kept (ArticleStore), an
// interface and a same-named token the composition root binds an adapter to.
import type { Article } from './article.js';
import type { TagIndex } from './tag-index.js';

// The articles' port: the published content.
/** Published articles (the content pages). Reads answer an index built once per change. */
export interface ArticleStore {
  /** The current articles; cheap enough to call per request. */
  index(): Promise<TagIndex>;
  /** Stores a checked article; article_exists when the slug is taken and `replace` is false. */
  publish(article: Article, options: { replace: boolean }): Promise<{ replaced: boolean }>;
}
export const ArticleStore = Symbol.for('switchyard.ArticleStore');
