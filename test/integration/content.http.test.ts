// Content pages through HTTP against the real service, on each engine: the starter content, tag
// pages (count, newest first, related tags), their downloads opened with a real zip reader,
// publishing with the API key (and refusals that store nothing), hostile markdown, and /llms.txt.
import { expect } from 'chai';
import request from 'supertest';
import yauzl from 'yauzl';
import { readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '@switchyard/app';
import { newestFirst, parseArticle } from '@switchyard/core';
import { TEST_API_KEY, engines, startTestService, type TestService } from '../support/app.js';

const STARTER = readdirSync(join(PROJECT_ROOT, 'content')).filter((n) => n.endsWith('.md')).map((n) => parseArticle(readFileSync(join(PROJECT_ROOT, 'content', n), 'utf8')));

const escape = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** Reads a whole response body as bytes (supertest buffers text types only). */
const bytes = (res: NodeJS.ReadableStream, done: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => done(null, Buffer.concat(chunks)));
};

/** Opens a zip with yauzl: entry names in archive order and their text. */
function unzip(buffer: Buffer): Promise<Array<{ name: string; text: string }>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true, strictFileNames: true, validateEntrySizes: true }, (err, zip) => {
      if (err) return reject(err);
      const entries: Array<{ name: string; text: string }> = [];
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (e, stream) => {
          if (e) return reject(e);
          bytes(stream, (_x, body) => {
            entries.push({ name: entry.fileName, text: body.toString('utf8') });
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(entries));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}
const binary = bytes as unknown as Parameters<request.Test['parse']>[0];

const article = (slug: string, date: string, tags: string[], extra: { title?: string; body?: string; summary?: string } = {}) =>
  `---\nslug: ${slug}\ntitle: ${JSON.stringify(extra.title ?? `Title of ${slug}`)}\ntags: [${tags.join(', ')}]\ndate: ${date}\nsummary: ${JSON.stringify(extra.summary ?? `About ${slug}.`)}\n---\n\n${extra.body ?? `Body of ${slug}.`}\n`;

/** The hrefs of the newest-first article list on a page, in order. */
const listed = (html: string) => [...html.matchAll(/<li><a href="\/articles\/([a-z0-9-]+)">/g)].map((m) => m[1]);

for (const engine of engines()) {
  describe(`HTTP content pages (${engine})`, function () {
    this.timeout(30_000);
    let svc: TestService;
    let http: ReturnType<typeof request>;
    const owner = (r: request.Test) => r.set('x-sheets-key', TEST_API_KEY);
    const publish = (markdown: string, replace?: boolean) => owner(http.post('/api/articles')).send(replace === undefined ? { markdown } : { markdown, replace });
    const files = () => readdirSync(svc.contentFolder).sort();

    before(async () => {
      // A fixed base URL: supertest listens on a new port per request, and the site zip's llms.txt
      // carries absolute links.
      svc = await startTestService(engine, { tokens: { mintPerMinute: 1000 }, server: { publicBaseUrl: 'http://switchyard.test' } });
      http = request(svc.switchyard.app);
      // Dates out of order on purpose; zeta-c shares two tags with zeta-a.
      await publish(article('zeta-a', '2026-01-10', ['zeta', 'alpha', 'beta'])).expect(201);
      await publish(article('zeta-b', '2026-03-05', ['zeta', 'alpha'])).expect(201);
      await publish(article('zeta-c', '2025-12-24', ['zeta', 'beta'])).expect(201);
    });
    after(async () => svc?.close());

    describe('starter content', () => {
      it('ships articles on getting started, each system, webhooks, proofs and tokens', () => {
        const slugs = STARTER.map((a) => a.slug);
        expect(slugs).to.include.members(['getting-started', 'webhooks', 'proofs', 'tokens', 'system-edge', 'system-messaging', 'system-payments', 'system-web']);
        const systems = svc.switchyard.registry.systems().map((s) => s.system);
        for (const s of systems) expect(STARTER.some((a) => a.tags.includes('systems') && a.body.includes(`/systems/${s}`)), s).to.equal(true);
      });

      it('serves every starter article as a page and as markdown on a fresh service', async () => {
        for (const a of STARTER) {
          const page = await http.get(`/articles/${a.slug}`).expect(200).expect('content-type', /text\/html/);
          expect(page.text).to.contain(`<h1>${escape(a.title)}</h1>`);
          const md = await http.get(`/articles/${a.slug}.md`).expect(200).expect('content-type', /text\/markdown/);
          expect(parseArticle(md.text)).to.deep.equal({ ...a, body: a.body.replace(/\s*$/, '\n') });
        }
        const home = (await http.get('/').expect(200)).text;
        const zetas = [['zeta-a', '2026-01-10'], ['zeta-b', '2026-03-05'], ['zeta-c', '2025-12-24']].map(([slug, date]) => ({ slug: slug!, date: date!, title: '', tags: [], summary: '' }));
        expect(listed(home)).to.deep.equal([...STARTER, ...zetas].sort(newestFirst).map((a) => a.slug));
      });

      it('serves a page per system, generated from the registry, and its markdown', async () => {
        for (const s of svc.switchyard.registry.systems()) {
          const page = (await http.get(`/systems/${s.system}`).expect(200)).text;
          for (const c of s.capabilities) expect(page).to.contain(`<h2>${c.key}</h2>`);
          const md = await http.get(`/systems/${s.system}.md`).expect(200).expect('content-type', /text\/markdown/);
          expect(md.text).to.match(new RegExp(`^# ${s.system}\\n`));
          const n = s.capabilities.length;
          expect(md.text).to.contain(`\n${n} ${n === 1 ? 'capability' : 'capabilities'} under `);
        }
        // The counts read as English: a system with one capability says "1 capability".
        const systems = svc.switchyard.registry.systems();
        expect(systems.some((s) => s.capabilities.length === 1)).to.equal(true);
        const home = (await http.get('/').expect(200)).text;
        const llms = (await http.get('/llms.txt').expect(200)).text;
        for (const s of systems) {
          const n = s.capabilities.length;
          expect(home).to.contain(`>${s.system}</a> <span class="count">${n} ${n === 1 ? 'capability' : 'capabilities'}</span>`);
          expect(llms).to.contain(`: ${n} ${n === 1 ? 'capability' : 'capabilities'}, generated from the registry`);
        }
        expect(home).to.not.match(/\b1 capabilities\b/);
        expect((await http.get('/systems/NOPE').expect(404)).text).to.contain('No system NOPE');
      });

      it('lists every tag with its count on /tags', async () => {
        const page = (await http.get('/tags').expect(200)).text;
        expect(page).to.match(/<a href="\/tags\/zeta" rel="tag">zeta<\/a> <span class="count">3 articles<\/span>/);
        const systems = STARTER.filter((a) => a.tags.includes('systems')).length;
        expect(page).to.contain(`<a href="/tags/systems" rel="tag">systems</a> <span class="count">${systems} articles</span>`);
        const once = STARTER.flatMap((a) => a.tags).filter((t, _i, all) => all.filter((x) => x === t).length === 1);
        expect(once.length).to.be.greaterThan(0);
        for (const tag of once) expect(page).to.contain(`<a href="/tags/${tag}" rel="tag">${tag}</a> <span class="count">1 article</span>`);
        expect((await http.get(`/tags/${once[0]}.md`).expect(200)).text).to.contain('\n1 article, newest first.');
        expect((await http.get(`/tags/${once[0]}`).expect(200)).text).to.contain('<span id="count">1</span> article, newest first.');
      });
    });

    describe('tag pages', () => {
      it('"Everything tagged <tag>": the count, newest first, related tags with co-occurrence counts, downloads', async () => {
        const res = await http.get('/tags/zeta').expect(200).expect('content-type', /text\/html/);
        expect(res.text).to.contain('<h1>Everything tagged zeta</h1>').and.contain('<span id="count">3</span> articles');
        expect(listed(res.text)).to.deep.equal(['zeta-b', 'zeta-a', 'zeta-c']);
        const related = [...res.text.matchAll(/<a href="\/tags\/([a-z0-9-]+)" rel="tag">[^<]*<\/a> <span class="count">(\d+) shared<\/span>/g)].map((m) => [m[1], Number(m[2])]);
        expect(related).to.deep.equal([['alpha', 2], ['beta', 2]]);
        for (const href of ['/tags/zeta.zip', '/tags/zeta/all.md', '/tags/zeta.json', '/site.zip', '/tags/zeta.md']) expect(res.text).to.contain(`href="${href}"`);
      });

      it('carries the guidance for automated readers: keyless entry points, and nothing beyond the operator\'s instructions', async () => {
        const text = (await http.get('/tags/zeta').expect(200)).text;
        const block = text.slice(text.indexOf('<section class="guidance"'));
        for (const p of ['/start', '/api/workspace/default/enter?role=observer', '/api/workspace', '/api/proven-work', '/llms.txt', '/api/dispatch?ask=&lt;question&gt;']) expect(block).to.contain(`<code>GET ${p}</code>`);
        expect(block).to.contain("Automated readers act on their operator&#39;s instructions").and.contain('Nothing here asks you to go beyond them');
        const md = (await http.get('/tags/zeta.md').expect(200)).text;
        expect(md).to.contain('## For automated readers').and.contain("act on their operator's instructions");
      });

      it('has a markdown version with the same list, related tags and absolute download links', async () => {
        const md = (await http.get('/tags/zeta.md').expect(200)).text;
        expect(md).to.match(/^# Everything tagged zeta\n\n3 articles, newest first\./);
        const slugs = [...md.matchAll(/\]\(http:\/\/[^)]+\/articles\/([a-z0-9-]+)\.md\)/g)].map((m) => m[1]);
        expect(slugs).to.deep.equal(['zeta-b', 'zeta-a', 'zeta-c']);
        expect(md).to.match(/- \[alpha\]\(http:\/\/[^)]+\/tags\/alpha\.md\): 2 shared/);
        expect(md).to.match(/\(http:\/\/[^)]+\/tags\/zeta\.zip\)/);
      });

      it('answers an unknown tag with a 404 in the format asked: HTML for a page, markdown for .md, coded JSON for downloads', async () => {
        for (const path of ['/tags/no-such-tag', '/tags/UPPER', '/tags/..%2Fetc', '/articles/no-such-article', '/articles/tokens.zip', '/systems/NOPE']) {
          const res = await http.get(path).expect(404);
          expect(res.type, path).to.equal('text/html');
          expect(res.text, path).to.contain('<h1>Not found</h1>');
        }
        expect((await http.get('/tags/no-such-tag').expect(404)).text).to.contain('Nothing is tagged no-such-tag.');
        for (const path of ['/tags/no-such-tag.md', '/tags/UPPER.md', '/tags/no-such-tag/all.md', '/articles/no-such-article.md', '/systems/NOPE.md']) {
          const res = await http.get(path).expect(404);
          expect(res.type, path).to.equal('text/markdown');
          expect(res.text, path).to.match(/^# Not found\n/).and.not.contain('<');
          expect(res.text, path).to.contain('(http://switchyard.test/llms.txt)');
        }
        expect((await http.get('/tags/no-such-tag.md').expect(404)).text).to.contain('\nNothing is tagged no-such-tag.\n');
        for (const path of ['/tags/no-such-tag.zip', '/tags/no-such-tag.json', '/tags/UPPER.json']) {
          const res = await http.get(path).expect(404).expect('content-type', /application\/json/);
          expect(res.body.error.code, path).to.equal('not_found');
        }
      });

      it('sends a self-only CSP and the other security headers on pages, and not on the API', async () => {
        for (const path of ['/', '/tags', '/tags/zeta', '/articles/tokens', '/tags/no-such-tag', '/llms.txt', '/site.zip']) {
          const res = await http.get(path);
          expect(res.headers['content-security-policy'], path).to.equal("default-src 'none';style-src 'self';img-src 'self';base-uri 'none';form-action 'none';frame-ancestors 'none'");
          expect(res.headers['x-content-type-options'], path).to.equal('nosniff');
        }
        const css = await http.get('/assets/pages.css').expect(200).expect('content-type', /text\/css/);
        expect(css.text).to.contain('body{');
        expect((await http.get('/api/dispatch?map=1')).headers).to.not.have.property('content-security-policy');
      });
    });

    describe('downloads', () => {
      const zipOf = async (path: string) => (await http.get(path).buffer(true).parse(binary).expect(200).expect('content-type', 'application/zip')).body as Buffer;

      it('the folder as a zip: one entry per article, by slug, each the article\'s markdown', async () => {
        const res = await http.get('/tags/zeta.zip').buffer(true).parse(binary).expect(200);
        expect(res.headers['content-disposition']).to.match(/^attachment; filename="?zeta\.zip"?$/);
        const entries = await unzip(res.body as Buffer);
        expect(entries.map((e) => e.name)).to.deep.equal(['zeta/zeta-a.md', 'zeta/zeta-b.md', 'zeta/zeta-c.md']);
        for (const e of entries) expect(e.text).to.equal((await http.get(`/articles/${e.name.slice(5, -3)}.md`).expect(200)).text);
        expect(parseArticle(entries[1]!.text)).to.include({ slug: 'zeta-b', date: '2026-03-05' });
      });

      it('answers 304 to a matching If-None-Match on pages and archives, until the content changes', async () => {
        for (const path of ['/tags/zeta', '/tags/zeta.md', '/llms.txt', '/site.zip', '/tags/zeta.zip']) {
          await http.get(path).buffer(true).parse(binary).expect(200);
          const etag = (await http.get(path).buffer(true).parse(binary).expect(200)).headers['etag'];
          expect(etag, path).to.match(/^"[A-Za-z0-9_-]{27}"$/);
          await http.get(path).set('if-none-match', etag!).expect(304);
        }
      });

      it('is byte-identical when nothing changed', async () => {
        expect((await zipOf('/tags/zeta.zip')).equals(await zipOf('/tags/zeta.zip'))).to.equal(true);
        expect((await zipOf('/site.zip')).equals(await zipOf('/site.zip'))).to.equal(true);
      });

      it('the folder as one markdown file: every article, newest first, each parseable', async () => {
        const res = await http.get('/tags/zeta/all.md').expect(200).expect('content-type', /text\/markdown/);
        const marked = [...res.text.matchAll(/^<!-- article: ([a-z0-9-]+) -->$/gm)].map((m) => m[1]);
        expect(marked).to.deep.equal(['zeta-b', 'zeta-a', 'zeta-c']);
        // Articles are separated by one blank line after each article's own final newline.
        const parts = res.text.split(/^<!-- article: [a-z0-9-]+ -->\n/m).slice(1).map((p) => p.replace(/\n\n$/, '\n'));
        expect(parts.map((p) => parseArticle(p).slug)).to.deep.equal(marked);
        expect(parseArticle(parts[0]!).body).to.equal('Body of zeta-b.\n');
        expect(parts[1]).to.equal((await http.get('/articles/zeta-a.md').expect(200)).text);
      });

      it('the folder as a JSON manifest', async () => {
        const m = (await http.get('/tags/zeta.json').expect(200).expect('content-type', /application\/json/)).body;
        expect(m).to.include({ ok: true, tag: 'zeta', title: 'Everything tagged zeta', count: 3 });
        expect(m.articles.map((a: { slug: string }) => a.slug)).to.deep.equal(['zeta-b', 'zeta-a', 'zeta-c']);
        expect(m.articles[0]).to.deep.include({ title: 'Title of zeta-b', date: '2026-03-05', summary: 'About zeta-b.', tags: ['zeta', 'alpha'], zip_entry: 'zeta/zeta-b.md' });
        expect(m.articles[0].url).to.match(/^http:\/\/[^/]+\/articles\/zeta-b$/);
        expect(m.articles[0].markdown).to.match(/\/articles\/zeta-b\.md$/);
        expect(m.related.map((r: { tag: string; count: number }) => [r.tag, r.count])).to.deep.equal([['alpha', 2], ['beta', 2]]);
        expect(Object.keys(m.downloads)).to.deep.equal(['zip', 'markdown', 'manifest', 'site']);
        for (const url of Object.values(m.downloads) as string[]) await http.get(new URL(url).pathname).expect(200);
      });

      it('the whole site as a zip: every article, every system page and llms.txt', async () => {
        const entries = await unzip(await zipOf('/site.zip'));
        const names = entries.map((e) => e.name);
        const slugs = [...STARTER.map((a) => a.slug), 'zeta-a', 'zeta-b', 'zeta-c'].sort();
        expect(names.filter((n) => n.startsWith('site/articles/'))).to.deep.equal(slugs.map((s) => `site/articles/${s}.md`));
        expect(names.filter((n) => n.startsWith('site/systems/'))).to.deep.equal(svc.switchyard.registry.systems().map((s) => `site/systems/${s.system}.md`));
        expect(names[0]).to.equal('site/llms.txt');
        expect(entries[0]!.text).to.match(/^# Switchyard\n/);
        for (const e of entries.filter((x) => x.name.startsWith('site/articles/'))) expect(parseArticle(e.text).slug).to.equal(e.name.slice(14, -3));
        expect(names.every((n) => !n.split('/').includes('..') && !n.startsWith('/'))).to.equal(true);
      });
    });

    describe('publishing', () => {
      it('with the API key: 201, then on its tag pages, the home page and llms.txt', async () => {
        const etagBefore = (await http.get('/tags/zeta').expect(200)).headers['etag'];
        const res = await publish(article('fresh-news', '2026-12-01', ['zeta', 'gamma'], { title: 'Fresh news' })).expect(201);
        expect(res.body).to.deep.include({ ok: true, replaced: false });
        expect(res.body.article).to.include({ slug: 'fresh-news', title: 'Fresh news', date: '2026-12-01' });
        expect(res.body.article.url).to.match(/\/articles\/fresh-news$/);
        const zeta = (await http.get('/tags/zeta').expect(200)).text;
        expect(zeta).to.contain('<span id="count">4</span> articles');
        expect(listed(zeta)[0]).to.equal('fresh-news');
        expect(zeta).to.contain('<a href="/tags/gamma" rel="tag">gamma</a> <span class="count">1 shared</span>');
        expect(listed((await http.get('/tags/gamma').expect(200)).text)).to.deep.equal(['fresh-news']);
        expect((await http.get('/llms.txt').expect(200)).text).to.match(/- \[Fresh news\]\(http:\/\/[^)]+\/articles\/fresh-news\.md\): About fresh-news\./);
        expect(files()).to.include('fresh-news.md');
        expect((await http.get('/tags/zeta').expect(200)).headers['etag']).to.not.equal(etagBefore);
        // Archives built before the publish are not served again.
        const site = await unzip((await http.get('/site.zip').buffer(true).parse(binary).expect(200)).body as Buffer);
        expect(site.map((e) => e.name)).to.include('site/articles/fresh-news.md');
        const zetaZip = await unzip((await http.get('/tags/zeta.zip').buffer(true).parse(binary).expect(200)).body as Buffer);
        expect(zetaZip.map((e) => e.name)).to.deep.equal(['zeta/fresh-news.md', 'zeta/zeta-a.md', 'zeta/zeta-b.md', 'zeta/zeta-c.md']);
      });

      it('accepts the fields instead of one markdown text', async () => {
        await owner(http.post('/api/articles')).send({ slug: 'by-fields', title: 'By fields', tags: ['gamma'], date: '2026-12-02T10:00:00Z', summary: 'Sent as fields.', body: '# Hi\n' }).expect(201);
        const page = (await http.get('/articles/by-fields').expect(200)).text;
        expect(page).to.contain('<h1>By fields</h1>').and.contain('<time datetime="2026-12-02T10:00:00Z">2026-12-02</time>');
        expect(listed((await http.get('/tags/gamma').expect(200)).text)).to.deep.equal(['by-fields', 'fresh-news']);
      });

      it('accepts title, tags and body alone: slug from the title, today (UTC, the service clock) as date, summary from the first paragraph', async () => {
        const clock = await svc.switchyard.container.getAsync<{ now(): Date }>(Symbol.for('switchyard.Clock'));
        const realNow = clock.now;
        // Late in the UTC day, so a local-time date would differ in zones east of UTC.
        clock.now = () => new Date('2027-03-04T23:30:00Z');
        try {
          const minimal = { title: 'Über the hill: 3 notes!', tags: ['delta'], body: '# Notes\n\nFirst **paragraph** with a [link](https://example.com/x),\nover two lines.\n\nSecond paragraph.\n' };
          const created = await owner(http.post('/api/articles')).send(minimal).expect(201);
          expect(created.body.article).to.include({ slug: 'uber-the-hill-3-notes', title: 'Über the hill: 3 notes!', date: '2027-03-04', summary: 'First paragraph with a link, over two lines.' });
          const stored = parseArticle((await http.get('/articles/uber-the-hill-3-notes.md').expect(200)).text);
          expect(stored).to.include({ slug: 'uber-the-hill-3-notes', date: '2027-03-04', summary: 'First paragraph with a link, over two lines.' });
          expect(stored.body).to.contain('Second paragraph.');

          const before = files();
          const taken = await owner(http.post('/api/articles')).send({ ...minimal, body: 'Another text.' }).expect(409);
          expect(taken.body.error).to.include({ code: 'article_exists', slug: 'uber-the-hill-3-notes' });
          expect(parseArticle((await http.get('/articles/uber-the-hill-3-notes.md').expect(200)).text).summary).to.equal('First paragraph with a link, over two lines.');

          const explicit = await owner(http.post('/api/articles')).send({ ...minimal, slug: 'chosen-slug', date: '2026-12-03', summary: 'Chosen summary.' }).expect(201);
          expect(explicit.body.article).to.include({ slug: 'chosen-slug', date: '2026-12-03', summary: 'Chosen summary.' });
          expect(files()).to.deep.equal([...before, 'chosen-slug.md'].sort());

          // Nothing to derive from: a title without a letter or digit, a body without a paragraph.
          const noSlug = await owner(http.post('/api/articles')).send({ title: '¿¡…!?', tags: ['delta'], body: 'Text.' }).expect(422);
          expect(noSlug.body.error.message).to.contain("'slug'");
          const noSummary = await owner(http.post('/api/articles')).send({ title: 'Only a heading', tags: ['delta'], body: '# Heading\n' }).expect(422);
          expect(noSummary.body.error.message).to.contain("'summary'");
          expect(files()).to.deep.equal([...before, 'chosen-slug.md'].sort());
        } finally {
          clock.now = realNow;
        }
      });

      it('refuses a taken slug with 409 article_exists, and replaces it with "replace": true', async () => {
        const taken = await publish(article('fresh-news', '2026-12-01', ['zeta'], { title: 'Other' })).expect(409);
        expect(taken.body.error).to.include({ code: 'article_exists', slug: 'fresh-news' });
        expect((await http.get('/articles/fresh-news').expect(200)).text).to.contain('<h1>Fresh news</h1>');
        const replaced = await publish(article('fresh-news', '2026-12-01', ['zeta'], { title: 'Fresh news, revised' }), true).expect(200);
        expect(replaced.body.replaced).to.equal(true);
        expect((await http.get('/articles/fresh-news').expect(200)).text).to.contain('<h1>Fresh news, revised</h1>');
        expect((await http.get('/tags/gamma').expect(200)).text).to.not.contain('fresh-news');
        expect(files().filter((f) => f.startsWith('.'))).to.deep.equal([]);
      });

      it('lets exactly one of two concurrent publishers of a new slug win', async () => {
        const [a, b] = await Promise.all([publish(article('race', '2026-12-04', ['zeta'], { title: 'First' })), publish(article('race', '2026-12-04', ['zeta'], { title: 'Second' }))]);
        expect([a.status, b.status].sort()).to.deep.equal([201, 409]);
        const winner = a.status === 201 ? 'First' : 'Second';
        expect((await http.get('/articles/race').expect(200)).text).to.contain(`<h1>${winner}</h1>`);
      });

      it('needs the API key: 401 without a credential, 403 scope_denied with any token, 401 with a bad key; nothing stored', async () => {
        const before = files();
        const md = article('not-allowed', '2026-12-01', ['zeta']);
        expect((await http.post('/api/articles').send({ markdown: md }).expect(401)).body.error).to.include({ code: 'credential_required', needed: 'article:publish' });
        const token = (await http.get('/start').expect(200)).body.token;
        expect((await http.post('/api/articles').set('authorization', `Bearer ${token}`).send({ markdown: md }).expect(403)).body.error).to.include({ code: 'scope_denied', needed: 'article:publish' });
        const observer = (await http.get('/api/workspace/default/enter?role=observer').expect(200)).body.token;
        expect((await http.post(`/api/articles?share=${encodeURIComponent(observer)}`).send({ markdown: md }).expect(403)).body.error.code).to.equal('scope_denied');
        expect((await http.post('/api/articles').set('x-sheets-key', 'sy_wrong_key_0123456789abcdef').send({ markdown: md }).expect(401)).body.error.code).to.equal('invalid_api_key');
        expect(files()).to.deep.equal(before);
        await http.get('/articles/not-allowed').expect(404);
      });

      it('refuses bad front matter with 422 invalid_article naming each problem, and bad requests with 400; nothing stored', async () => {
        const before = files();
        const cases: Array<[unknown, number, string, string[]?]> = [
          [{ markdown: 'no front matter at all' }, 422, 'invalid_article', ['/']],
          [{ markdown: article('Bad_Slug', '2026-12-01', ['zeta']) }, 422, 'invalid_article', ['/slug']],
          [{ markdown: article('bad-tags', '2026-12-01', ['Zeta', 'a b']) }, 422, 'invalid_article', ['/tags/0', '/tags/1']],
          [{ markdown: article('bad-date', '2026-13-01', ['zeta']) }, 422, 'invalid_article', ['/date']],
          [{ markdown: article('bad-date-2', 'yesterday', ['zeta']) }, 422, 'invalid_article', ['/date']],
          [{ markdown: '---\nslug: [unclosed\n---\nx' }, 422, 'invalid_article', ['/']],
          [{ slug: 'fields-no-body', title: 'T', tags: ['zeta'], date: '2026-12-01', summary: 's' }, 422, 'invalid_article', ['/body']],
          [{ slug: 'fields-no-title', tags: ['zeta'], date: '2026-12-01', summary: 's', body: 'x' }, 422, 'invalid_article', ['/']],
          [{ markdown: 42 }, 400, 'invalid_request'],
          [{ markdown: article('both', '2026-12-01', ['zeta']), title: 'x' }, 400, 'invalid_request'],
          [{ markdown: article('extra', '2026-12-01', ['zeta']), author: 'me' }, 400, 'invalid_request'],
          [{ markdown: article('rep', '2026-12-01', ['zeta']), replace: 'yes' }, 400, 'invalid_request'],
          [['not', 'an', 'object'], 400, 'invalid_request'],
        ];
        for (const [body, status, code, paths] of cases) {
          const res = await owner(http.post('/api/articles')).send(body as object).expect(status);
          expect(res.body.error.code, JSON.stringify(body)).to.equal(code);
          if (paths) expect(res.body.error.errors.map((e: { path: string }) => e.path), JSON.stringify(body)).to.deep.equal(paths);
        }
        const notJson = await owner(http.post('/api/articles')).set('content-type', 'application/json').send('{nope').expect(400);
        expect(notJson.body.error.code).to.equal('invalid_request');
        expect(files()).to.deep.equal(before);
      });

      it('picks up an article written into the folder by hand, and skips a broken file without breaking the pages', async () => {
        writeFileSync(join(svc.contentFolder, '.by-hand.tmp'), article('by-hand', '2026-11-30', ['zeta']));
        renameSync(join(svc.contentFolder, '.by-hand.tmp'), join(svc.contentFolder, 'by-hand.md'));
        writeFileSync(join(svc.contentFolder, 'broken.md'), '---\ntitle: no slug\n---\n');
        writeFileSync(join(svc.contentFolder, 'misnamed.md'), article('other-name', '2026-11-30', ['zeta']));
        const page = (await http.get('/tags/zeta').expect(200)).text;
        expect(listed(page)).to.include('by-hand').and.not.include('other-name');
        await http.get('/articles/broken').expect(404);
        await http.get('/articles/other-name').expect(404);
      });
    });

    describe('hostile content', () => {
      const HOSTILE_TITLE = '<img src=x onerror=alert(1)> "quoted" & [link](javascript:alert(2))';
      const HOSTILE_BODY = [
        '<script>alert("body")</script>',
        '',
        '[click](javascript:alert(3)) [again](JaVaScRiPt:alert(4)) [data](data:text/html;base64,PHNjcmlwdD4=)',
        '',
        '<a href="javascript:alert(5)">raw link</a> <img src=x onerror="alert(6)">',
        '',
        '![img](javascript:alert(7))',
      ].join('\n');

      before(async () => {
        await publish(article('hostile', '2026-12-03', ['hostile'], { title: HOSTILE_TITLE, summary: '<script>alert("summary")</script>', body: HOSTILE_BODY })).expect(201);
      });

      it('escapes the title, summary and body everywhere in HTML: no script, no javascript: link, no event handler', async () => {
        for (const path of ['/articles/hostile', '/tags/hostile', '/', '/tags/zeta']) {
          const text = (await http.get(path).expect(200)).text;
          expect(text, path).to.not.match(/<script/i);
          expect(text, path).to.not.match(/<img[^>]*onerror/i);
          expect(text, path).to.not.match(/href="(?:javascript|data):/i);
          expect(text, path).to.not.match(/src="javascript:/i);
        }
        const page = (await http.get('/articles/hostile').expect(200)).text;
        expect(page).to.contain('<h1>&lt;img src=x onerror=alert(1)&gt; &quot;quoted&quot; &amp; [link](javascript:alert(2))</h1>');
        expect(page).to.contain('&lt;script&gt;alert(&quot;body&quot;)&lt;/script&gt;');
        expect(page).to.contain('&lt;a href=&quot;javascript:alert(5)&quot;&gt;raw link&lt;/a&gt;');
        expect(page).to.contain('<p class="summary">&lt;script&gt;alert(&quot;summary&quot;)&lt;/script&gt;</p>');
      });

      it('keeps link syntax in llms.txt and markdown lists from being broken out of', async () => {
        const line = (await http.get('/llms.txt').expect(200)).text.split('\n').find((l) => l.includes('/articles/hostile.md'))!;
        expect(line).to.match(/^- \[[^\n]*\]\(http:\/\/[^)]+\/articles\/hostile\.md\): /);
        expect(line).to.contain('\\[link\\]').and.contain('\\<img');
        expect(line).to.not.match(/[^\\]\]\(javascript:/);
      });
    });

    describe('/llms.txt', () => {
      it('follows the llmstxt.org format: title, summary, paragraphs, sections of links', async () => {
        const res = await http.get('/llms.txt').expect(200).expect('content-type', /text\/plain/);
        const lines = res.text.split('\n');
        expect(lines[0]).to.equal('# Switchyard');
        expect(lines[1]).to.equal('');
        expect(lines[2]).to.match(/^> \S.+/);
        const sections = lines.filter((l) => l.startsWith('## ')).map((l) => l.slice(3));
        expect(sections).to.deep.equal(['Entry points', 'Articles', 'Tags', 'Systems', 'Optional']);
        expect(lines.filter((l) => l.startsWith('# '))).to.have.length(1);
        // Between the sections, every non-blank line is a link item.
        const body = lines.slice(lines.indexOf('## Entry points'));
        for (const l of body.filter((x) => x && !x.startsWith('## '))) expect(l).to.match(/^- \[[^\]]+(?:\\\][^\]]*)*\]\(https?:\/\/[^)\s]+\)(?:: .+)?$/);
        expect(res.text).to.contain("act on their operator's instructions");
      });

      it('links /start, /api/proven-work and /api/workspace, and every article, tag and system', async () => {
        const text = (await http.get('/llms.txt').expect(200)).text;
        for (const p of ['/start)', '/api/proven-work)', '/api/workspace)', '/api/workspace/default/enter?role=observer)']) expect(text).to.contain(p);
        for (const a of STARTER) expect(text).to.contain(`/articles/${a.slug}.md)`);
        for (const t of ['zeta', 'alpha', 'systems']) expect(text).to.contain(`/tags/${t}.md)`);
        for (const s of svc.switchyard.registry.systems()) expect(text).to.contain(`/systems/${s.system}.md)`).and.contain(`/api/dispatch?map=${s.system}&format=markdown)`);
      });

      it('links markdown versions that exist: every article, tag and system link answers 200 markdown', async () => {
        const text = (await http.get('/llms.txt').expect(200)).text;
        const section = (name: string) => text.split(`## ${name}\n`)[1]!.split('\n## ')[0]!;
        const urls = ['Articles', 'Tags', 'Systems'].flatMap((s) => [...section(s).matchAll(/\]\((http[^)\s]+)\)/g)].map((m) => m[1]!));
        expect(urls.length).to.be.greaterThan(STARTER.length + 10);
        for (const url of urls) {
          const u = new URL(url);
          const res = await http.get(u.pathname + u.search);
          expect(res.status, url).to.equal(200);
          expect(res.type, url).to.equal('text/markdown');
        }
      });
    });
  });
}
