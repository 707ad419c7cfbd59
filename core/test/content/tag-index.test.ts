import { expect } from 'chai';
import { TagIndex, type Article } from '../../src/index.js';

const art = (slug: string, date: string, tags: string[]): Article => ({ slug, date, tags, title: slug.toUpperCase(), summary: `about ${slug}`, body: '' });

describe('core: tag index', () => {
  const index = new TagIndex([
    art('a', '2026-01-01', ['guides', 'webhooks']),
    art('b', '2026-03-01', ['guides', 'tokens', 'webhooks']),
    art('c', '2026-02-01', ['guides', 'tokens']),
    art('d', '2026-04-01', ['webhooks']),
    art('e', '2026-02-01', ['guides']),
  ]);

  it('lists every article newest first and finds one by slug', () => {
    expect(index.articles.map((a) => a.slug)).to.deep.equal(['d', 'b', 'c', 'e', 'a']);
    expect(index.article('c')?.title).to.equal('C');
    expect(index.article('zz')).to.equal(undefined);
  });

  it('counts tags, most used first, ties by name', () => {
    expect(index.tags()).to.deep.equal([
      { tag: 'guides', count: 4 },
      { tag: 'webhooks', count: 3 },
      { tag: 'tokens', count: 2 },
    ]);
  });

  it('answers a tag with its count, newest-first articles and co-occurring tags with counts', () => {
    const view = index.tag('guides')!;
    expect(view.count).to.equal(4);
    expect(view.articles.map((a) => a.slug)).to.deep.equal(['b', 'c', 'e', 'a']);
    expect(view.related).to.deep.equal([
      { tag: 'tokens', count: 2 },
      { tag: 'webhooks', count: 2 },
    ]);
    expect(index.tag('webhooks')!.related).to.deep.equal([
      { tag: 'guides', count: 2 },
      { tag: 'tokens', count: 1 },
    ]);
  });

  it('answers undefined for an unknown tag and an empty index', () => {
    expect(index.tag('nope')).to.equal(undefined);
    expect(new TagIndex([]).tags()).to.deep.equal([]);
  });
});
