// The tag index over published articles: counts, newest-first lists and co-occurring tags.
import { newestFirst, type Article } from './article.js';

export interface TagCount {
  tag: string;
  count: number;
}

export interface TagView {
  tag: string;
  count: number;
  articles: Article[];
  /** Other tags on this tag's articles, with how many articles carry both; most shared first. */
  related: TagCount[];
}

const byCountThenName = (a: TagCount, b: TagCount): number => b.count - a.count || (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0);

/** Built once per set of articles (at load and after a publish), never per request. */
export class TagIndex {
  readonly articles: Article[];
  private readonly bySlug = new Map<string, Article>();
  private readonly byTag = new Map<string, Article[]>();

  constructor(articles: Iterable<Article>) {
    this.articles = [...articles].sort(newestFirst);
    for (const a of this.articles) {
      this.bySlug.set(a.slug, a);
      for (const tag of a.tags) {
        const list = this.byTag.get(tag) ?? [];
        list.push(a); // already newest first
        this.byTag.set(tag, list);
      }
    }
  }

  article(slug: string): Article | undefined {
    return this.bySlug.get(slug);
  }

  /** Every tag with its count, most used first. */
  tags(): TagCount[] {
    return [...this.byTag].map(([tag, list]) => ({ tag, count: list.length })).sort(byCountThenName);
  }

  tag(tag: string): TagView | undefined {
    const articles = this.byTag.get(tag);
    if (!articles) return undefined;
    const shared = new Map<string, number>();
    for (const a of articles) for (const other of a.tags) if (other !== tag) shared.set(other, (shared.get(other) ?? 0) + 1);
    return { tag, count: articles.length, articles, related: [...shared].map(([t, count]) => ({ tag: t, count })).sort(byCountThenName) };
  }
}
