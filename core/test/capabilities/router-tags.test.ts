import { expect } from 'chai';
import { parseRouterTags } from '../../src/index.js';

const tagsOf = (text: string) => parseRouterTags(text).tags.map((t) => ({ key: t.key, body: t.body }));

describe('core: router tags', () => {
  it('finds one tag and keeps the text around it', () => {
    const parsed = parseRouterTags('Setting it now: [EDGE_SET]{"workerId":"a"}[/EDGE_SET] done.');
    expect(parsed.segments.map((s) => (s.kind === 'text' ? s.text : `<${s.key}>`))).to.deep.equal(['Setting it now: ', '<EDGE_SET>', ' done.']);
    expect(parsed.tags[0]).to.include({ key: 'EDGE_SET', body: '{"workerId":"a"}', start: 16 });
    expect(parsed.problems).to.deep.equal([]);
  });

  it('reads several tags in order, with empty and multi-line bodies trimmed', () => {
    expect(tagsOf('[A_ONE]\n  {"x": 1}\n[/A_ONE] then [B_TWO][/B_TWO] and [A_ONE]GET|https://e.com||[/A_ONE]')).to.deep.equal([
      { key: 'A_ONE', body: '{"x": 1}' },
      { key: 'B_TWO', body: '' },
      { key: 'A_ONE', body: 'GET|https://e.com||' },
    ]);
  });

  it('passes unknown keys through: the router, not the parser, knows the registry', () => {
    expect(tagsOf('[NOT_A_KEY]{}[/NOT_A_KEY]')).to.deep.equal([{ key: 'NOT_A_KEY', body: '{}' }]);
  });

  it('reports an unterminated key-like tag and runs nothing for it', () => {
    const parsed = parseRouterTags('try [WEB_FETCH]GET|https://e.com|| and stop');
    expect(parsed.tags).to.deep.equal([]);
    expect(parsed.problems).to.deep.equal([{ problem: 'unterminated', key: 'WEB_FETCH', at: 4 }]);
    expect(parsed.segments).to.deep.equal([{ kind: 'text', text: 'try [WEB_FETCH]GET|https://e.com|| and stop' }]);
  });

  it('does not nest: an inner tag is part of the outer arguments and never a run of its own', () => {
    const parsed = parseRouterTags('[OUTER_KEY]{"a":"[INNER_KEY]x[/INNER_KEY]"}[/OUTER_KEY]');
    expect(parsed.tags.map((t) => t.key)).to.deep.equal(['OUTER_KEY']);
    expect(parsed.tags[0]!.body).to.equal('{"a":"[INNER_KEY]x[/INNER_KEY]"}');
  });

  it('ends a body at the first close of its own key, even with other tags inside', () => {
    expect(tagsOf('[A_KEY]1[/A_KEY]2[/A_KEY]')).to.deep.equal([{ key: 'A_KEY', body: '1' }]);
    expect(parseRouterTags('[A_KEY]1[/A_KEY]2[/A_KEY]').problems).to.deep.equal([{ problem: 'unopened', key: 'A_KEY', at: 17 }]);
  });

  it('accepts keys in lower or mixed case, normalised to upper case and matched to a close in any case', () => {
    const [tag] = parseRouterTags('[web_fetch]GET|https://e.com||[/WEB_FETCH]').tags;
    expect(tag).to.include({ key: 'WEB_FETCH', writtenAs: 'web_fetch', body: 'GET|https://e.com||' });
  });

  it('leaves ordinary bracketed words alone ([1], [Note]) and reports key-like stray closes', () => {
    const parsed = parseRouterTags('See [1] and [Note] here, then [/EDGE_SET].');
    expect(parsed.tags).to.deep.equal([]);
    expect(parsed.problems).to.deep.equal([{ problem: 'unopened', key: 'EDGE_SET', at: 30 }]);
  });

  it('keeps offsets right around characters whose case mapping changes length', () => {
    const text = 'İİ [A_KEY]x[/a_key] İ';
    const [tag] = parseRouterTags(text).tags;
    expect(text.slice(tag!.start, tag!.end)).to.equal('[A_KEY]x[/a_key]');
  });

  it('ignores a tag whose name is not of the key alphabet', () => {
    expect(tagsOf('[A-B]x[/A-B] [9_KEY]x[/9_KEY]')).to.deep.equal([]);
  });
});
