import { expect } from 'chai';
import { actorProblem, compileValidator, createAjv, isReservedActor, normalizeActor, stackedActor } from '../../src/index.js';

describe('core: actor names', () => {
  it('compares and stores a name in its NFKC form', () => {
    expect(normalizeActor('\uff42\uff4f\uff54-\uff11')).to.equal('bot-1');
    expect(normalizeActor('ﬁle')).to.equal('file');
    expect(actorProblem('\uff42\uff4f\uff54-\uff11')).to.equal(null);
  });

  it('refuses reserved names however they are spelled once normalised', () => {
    for (const name of ['owner', 'OWNER', ' owner', '\uff4f\uff57\uff4e\uff45\uff52', 'hook:hk_1', '\uff48\uff4f\uff4f\uff4b\uff1ahk_1', '\u3000system']) {
      expect(isReservedActor(name), JSON.stringify(name)).to.equal(true);
      expect(actorProblem(name), JSON.stringify(name)).to.contain('reserved');
    }
    expect(actorProblem('owners-friend')).to.equal(null);
  });

  it('refuses control, format (zero-width, bidi), unassigned and lone-surrogate characters', () => {
    const invisible = ['owner\u200b', '\u202eowner', 'ow\u200dner', '\u2066bot', 'bot\u0000', 'bot\u0085', 'bot\u00ad', 'bot\u{e0001}', 'bot\u0378', 'bot\ud800', 'a\u2028b', 'a\u2029b'];
    for (const name of invisible) expect(actorProblem(name), JSON.stringify(name)).to.equal('an actor has no control, format (zero-width, bidi) or unassigned characters');
    expect(actorProblem('Zoë 🚂 bot')).to.equal(null);
  });

  it('bounds a name at 200 characters of its normal form, stacked or not', () => {
    expect(actorProblem('a'.repeat(200))).to.equal(null);
    expect(actorProblem('a'.repeat(201))).to.contain('1 to 200');
    expect(actorProblem('')).to.contain('1 to 200');
    expect(stackedActor(null, 'bot')).to.equal('bot');
    expect(stackedActor('bot', 'bot')).to.equal('bot');
    expect(stackedActor('bot', 'night')).to.equal('bot/night');
    expect(stackedActor('p'.repeat(100), 'c'.repeat(99))).to.have.length(200);
    expect(stackedActor('p'.repeat(100), 'c'.repeat(100))).to.equal(null);
  });
});

describe('core: the uri format', () => {
  const validate = compileValidator(createAjv(), { type: 'string', format: 'uri' });
  it('accepts what a URL parser reads and refuses RFC 3986 forms it cannot (a % in an http host, a port past 65535)', () => {
    for (const ok of ['https://example.com/a?b=1', 'http://127.0.0.1:8080/', 'urn:isbn:0451450523', 'mailto:a@example.com']) expect(validate(ok), ok).to.deep.equal([]);
    // Not 'http://xn--/': Node 20's URL parser refuses that empty punycode label and Node 24's reads it,
    // and the format follows the parser of the line it runs on.
    for (const bad of ['http://x%25y/', 'http://example.com:99999/', 'not a url']) expect(validate(bad).map((e) => e.keyword), bad).to.deep.equal(['format']);
  });
});
