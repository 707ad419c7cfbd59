import { expect } from 'chai';
import { SwitchyardError, articleSource, checkArticleMeta, newestFirst, parseArticle, slugFromTitle, summaryFromBody, withDerivedFields, type Article } from '../../src/index.js';

const source = (front: string, body = 'Body text.\n') => `---\n${front}\n---\n\n${body}`;
const GOOD = 'slug: first-steps\ntitle: First steps\ntags: [guides, webhooks]\ndate: 2026-11-20\nsummary: How to begin.';

const problems = (fn: () => unknown): string[] => {
  try {
    fn();
  } catch (err) {
    expect(SwitchyardError.is(err, 'invalid_article'), String(err)).to.equal(true);
    return ((err as SwitchyardError).details['errors'] as Array<{ path: string }>).map((e) => e.path);
  }
  throw new Error('expected invalid_article');
};

describe('core: articles', () => {
  it('parses front matter and body, keeping a YAML date as its ISO text', () => {
    const a = parseArticle(source(GOOD, '# Hello\n\nWorld.\n'));
    expect(a).to.deep.equal({ slug: 'first-steps', title: 'First steps', tags: ['guides', 'webhooks'], date: '2026-11-20', summary: 'How to begin.', body: '# Hello\n\nWorld.\n' });
  });

  it('accepts a date-time and CRLF line ends', () => {
    const a = parseArticle(source(GOOD.replace('2026-11-20', '"2026-11-20T08:30:00Z"')).replace(/\n/g, '\r\n'));
    expect(a.date).to.equal('2026-11-20T08:30:00Z');
  });

  it('round-trips through its file form', () => {
    const a = parseArticle(source(GOOD.replace('First steps', '"Quotes: \\"yes\\" and # hash"'), 'Body.\n'));
    expect(a.title).to.equal('Quotes: "yes" and # hash');
    expect(parseArticle(articleSource(a))).to.deep.equal(a);
  });

  it('names every bad field: slug, tags, date, summary, unknown keys', () => {
    const bad = 'slug: Bad/Slug\ntitle: T\ntags: [Guides, ok]\ndate: 2026-02-30\nsummary: ""\nauthor: me';
    expect(problems(() => parseArticle(source(bad)))).to.include.members(['/slug', '/tags/0', '/date', '/summary', '/']);
  });

  it('refuses a missing front matter, broken YAML, a missing field and an empty tag list', () => {
    problems(() => parseArticle('# No front matter\n'));
    problems(() => parseArticle(source('title: [unclosed')));
    expect(problems(() => parseArticle(source(GOOD.replace(/^summary:.*$/m, ''))))).to.deep.equal(['/']);
    expect(problems(() => checkArticleMeta({ slug: 'a', title: 'T', tags: [], date: '2026-01-01', summary: 's' }))).to.deep.equal(['/tags']);
  });

  it('refuses slugs that are not one safe path segment', () => {
    for (const slug of ['..', 'a.b', '-a', 'a-', 'a/b', 'A', '', 'a'.repeat(81)]) {
      expect(problems(() => checkArticleMeta({ slug, title: 'T', tags: ['t'], date: '2026-01-01', summary: 's' })), slug).to.include('/slug');
    }
  });

  it('orders newest first, equal dates by slug', () => {
    const m = (slug: string, date: string) => ({ slug, date, title: slug, tags: ['t'], summary: 's' });
    const sorted = [m('b', '2026-01-01'), m('c', '2026-03-01T10:00:00Z'), m('a', '2026-01-01'), m('d', '2026-03-01')].sort(newestFirst);
    expect(sorted.map((x) => x.slug)).to.deep.equal(['c', 'd', 'a', 'b']);
  });

  it('keeps a hostile body as text (rendering is the adapter\'s job) but never lets it reach the front matter', () => {
    const a: Article = { slug: 'x', title: 'T', tags: ['t'], date: '2026-01-01', summary: 's', body: '---\nslug: other\n---\n<script>alert(1)</script>' };
    const again = parseArticle(articleSource(a));
    expect(again.slug).to.equal('x');
    expect(again.body).to.contain('<script>');
  });

  it('derives a slug from a title: ASCII words joined by -, accents dropped, 80 characters at most', () => {
    expect(slugFromTitle('Rotating token root keys')).to.equal('rotating-token-root-keys');
    expect(slugFromTitle('  Crème brûlée: 2 ways!  ')).to.equal('creme-brulee-2-ways');
    expect(slugFromTitle('日本語')).to.equal('');
    const long = slugFromTitle(`${'word '.repeat(30)}end`);
    expect(long.length).to.be.at.most(80);
    expect(() => checkArticleMeta({ slug: long, title: 'T', tags: ['t'], date: '2026-01-01', summary: 's' })).to.not.throw();
  });

  it('summarises a body by its first paragraph, skipping headings, code and comments', () => {
    expect(summaryFromBody('# Title\n\n<!-- note -->\n\n```sh\necho hi\n\necho again\n```\n\nThe **first** `real` [paragraph](https://x.test)\ncontinues.\n\nNot this.')).to.equal('The first real paragraph continues.');
    expect(summaryFromBody('## Only a heading\n')).to.equal('');
    const long = summaryFromBody('x'.repeat(600));
    expect(long).to.have.length(500);
    expect(long.endsWith('…')).to.equal(true);
  });

  it('fills in slug, date (UTC day) and summary only where they were left out', () => {
    const now = new Date('2026-05-31T23:59:59Z');
    expect(withDerivedFields({ title: 'Hello world', tags: ['t'], body: 'Para one.\n\nPara two.' }, now)).to.deep.equal({ slug: 'hello-world', title: 'Hello world', tags: ['t'], date: '2026-05-31', summary: 'Para one.', body: 'Para one.\n\nPara two.' });
    const explicit = { slug: 'mine', title: 'Hello world', tags: ['t'], date: '2026-01-02', summary: 'Mine.', body: 'Para one.' };
    expect(withDerivedFields(explicit, now)).to.deep.equal(explicit);
    expect(withDerivedFields({ title: '…', tags: ['t'], body: '# h' }, now)).to.not.have.any.keys('slug', 'summary');
  });
});
