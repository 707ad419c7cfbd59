// Articles: markdown with a YAML front matter block (title, tags, date, summary, slug), checked here.
import { parse as parseYaml } from 'yaml';
import { SwitchyardError } from '../errors.js';
import { compileValidator, createAjv, type ArgumentError } from '../validation.js';

export interface ArticleMeta {
  slug: string;
  title: string;
  tags: string[];
  /** ISO 8601 date (YYYY-MM-DD) or date-time; the sort key of every newest-first list. */
  date: string;
  summary: string;
}

export interface Article extends ArticleMeta {
  /** The markdown after the front matter. */
  body: string;
}

/** Slugs and tags are URL path segments and zip entry names: lower-case, no dots, no slashes. */
export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,78}[a-z0-9])?$/;

export const ARTICLE_META_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['slug', 'title', 'tags', 'date', 'summary'],
  properties: {
    slug: { type: 'string', pattern: SLUG_PATTERN.source },
    title: { type: 'string', minLength: 1, maxLength: 200 },
    tags: { type: 'array', minItems: 1, maxItems: 20, uniqueItems: true, items: { type: 'string', pattern: SLUG_PATTERN.source } },
    date: { type: 'string', format: 'article-date' },
    summary: { type: 'string', minLength: 1, maxLength: 500 },
  },
} as const;

// An ISO date or date-time (with a zone) that exists: 2026-02-30 is refused, not rolled over.
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;
const isArticleDate = (s: string): boolean => {
  const m = ISO_DATE.exec(s);
  if (!m || Number.isNaN(Date.parse(s))) return false;
  const day = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return day.toISOString().slice(0, 10) === s.slice(0, 10);
};

const ajv = createAjv();
ajv.addFormat('article-date', isArticleDate);
const validateMeta = compileValidator(ajv, ARTICLE_META_SCHEMA);

const invalid = (message: string, errors: ArgumentError[] | Array<{ path: string; message: string }>): never => {
  throw new SwitchyardError('invalid_article', message, { errors });
};

/** Checks a parsed front matter object; throws invalid_article listing every problem. */
export function checkArticleMeta(meta: unknown): ArticleMeta {
  const errors = validateMeta(meta);
  if (errors.length) invalid(`front matter is invalid: ${errors.map((e) => e.message).join('; ')}`, errors);
  return meta as ArticleMeta;
}

// A front matter block: '---' alone on the first line, YAML, '---' alone on a line.
const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/** Splits and checks an article file; throws invalid_article for a missing or bad front matter. */
export function parseArticle(text: string): Article {
  const match = FRONT_MATTER.exec(text.replace(/^\uFEFF/, ''));
  if (!match) return invalid('an article starts with a front matter block between --- lines', [{ path: '/', message: 'no front matter block' }]);
  let meta: unknown;
  try {
    // The YAML 1.2 core schema keeps dates as strings, so `date: 2026-01-05` stays text.
    meta = parseYaml(match[1]!, { schema: 'core' });
  } catch (err) {
    return invalid(`front matter is not valid YAML: ${(err as Error).message.split('\n')[0]}`, [{ path: '/', message: 'not valid YAML' }]);
  }
  const checked = checkArticleMeta(meta);
  return { ...checked, body: text.replace(/^\uFEFF/, '').slice(match[0].length).replace(/^\s*\n/, '') };
}

/** A slug made from a title: ASCII letters and digits, lower-case, words joined by `-`; '' if none. */
export function slugFromTitle(title: string): string {
  const words = title.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '-');
  return words.slice(0, 80).replace(/^-+|-+$/g, '');
}

/**
 * The first paragraph of a markdown body as one line of plain text ('' if there is none): headings,
 * fenced code, HTML comments, tables and rules are skipped; links keep their text, code and strong
 * marks are dropped. Cut to the summary's 500 characters.
 */
export function summaryFromBody(body: string): string {
  const paragraph: string[] = [];
  let fence: string | null = null;
  for (const raw of body.split(/\r?\n/)) {
    const line = raw.trim();
    const marker = /^(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      if (marker && line.startsWith(fence)) fence = null;
      continue;
    }
    const skipped = marker !== undefined || /^(#{1,6}\s|<!--|\||(?:[-*_]\s*){3,}$)/.test(line);
    if (line === '' || skipped) {
      if (paragraph.length) break;
      if (marker) fence = marker;
      continue;
    }
    paragraph.push(line);
  }
  const text = paragraph.join(' ').replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/`|\*\*|__/g, '').replace(/\s+/g, ' ').trim();
  return text.length > 500 ? `${text.slice(0, 499).trimEnd()}…` : text;
}

/**
 * The fields form of a new article with what was left out filled in: the slug from the title, the
 * date as today's UTC day, the summary from the body's first paragraph. Fields sent always win; a
 * field that cannot be derived stays missing, so the check names it.
 */
export function withDerivedFields(fields: Record<string, unknown>, now: Date): Record<string, unknown> {
  const derived: Record<string, unknown> = {};
  if (fields['slug'] === undefined && typeof fields['title'] === 'string' && slugFromTitle(fields['title'])) derived['slug'] = slugFromTitle(fields['title']);
  if (fields['date'] === undefined) derived['date'] = now.toISOString().slice(0, 10);
  if (fields['summary'] === undefined && typeof fields['body'] === 'string' && summaryFromBody(fields['body'])) derived['summary'] = summaryFromBody(fields['body']);
  return { ...derived, ...Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) };
}

/** The file form of an article: front matter in a fixed key order, then the body. */
export function articleSource(a: Article): string {
  const yamlString = (s: string) => JSON.stringify(s); // JSON strings are valid YAML scalars
  const front = [
    `slug: ${a.slug}`,
    `title: ${yamlString(a.title)}`,
    `tags: [${a.tags.join(', ')}]`,
    `date: ${yamlString(a.date)}`,
    `summary: ${yamlString(a.summary)}`,
  ];
  return `---\n${front.join('\n')}\n---\n\n${a.body.replace(/\s*$/, '')}\n`;
}

/** Newest first; equal dates by slug, so every list and archive has one order. */
export const newestFirst = (a: ArticleMeta, b: ArticleMeta): number => {
  const d = Date.parse(b.date) - Date.parse(a.date);
  return d !== 0 ? d : a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0;
};
