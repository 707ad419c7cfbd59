import { expect } from 'chai';
import { SwitchyardError, parseBody, bodyText } from '../../src/index.js';

describe('core: body formats', () => {
  const cases: [string, 'json' | 'pipe', unknown, unknown][] = [
    ['json string', 'json', '{"a":1}', { a: 1 }],
    ['json object as is', 'json', { a: 1 }, { a: 1 }],
    ['absent body is {}', 'json', undefined, {}],
    ['empty string is {}', 'json', '', {}],
    ['pipe GET with trailing pipes', 'pipe', 'GET|https://example.com/||', { method: 'GET', url: 'https://example.com/' }],
    ['pipe lower-case method', 'pipe', 'get|https://example.com/a?b=c||', { method: 'GET', url: 'https://example.com/a?b=c' }],
    ['pipe with request body (pipes inside kept)', 'pipe', 'POST|https://example.com/x||{"a":"b|c"}', { method: 'POST', url: 'https://example.com/x', body: '{"a":"b|c"}' }],
    ['pipe JSON object', 'pipe', { method: 'GET', url: 'https://e.com' }, { method: 'GET', url: 'https://e.com' }],
    ['pipe JSON text', 'pipe', '{"method":"GET","url":"https://e.com"}', { method: 'GET', url: 'https://e.com' }],
  ];
  for (const [name, format, body, expected] of cases) {
    it(`parses ${name}`, () => expect(parseBody(format, body)).to.deep.equal(expected));
  }

  const bad: [string, 'json' | 'pipe', unknown][] = [
    ['malformed JSON', 'json', '{"a":'],
    ['a number body', 'json', 42],
    ['a boolean body', 'json', true],
    ['pipe without the two pipes', 'pipe', 'GET|https://example.com/'],
    ['pipe without a method', 'pipe', '|https://example.com/||'],
    ['pipe number', 'pipe', 7],
  ];
  for (const [name, format, body] of bad) {
    it(`rejects ${name} as invalid_arguments`, () => {
      expect(() => parseBody(format, body)).to.throw().that.satisfies((e: unknown) => SwitchyardError.is(e, 'invalid_arguments'));
    });
  }

  it('keeps the body text as sent', () => {
    expect(bodyText('{"a": 1}')).to.equal('{"a": 1}');
    expect(bodyText({ a: 1 })).to.equal('{"a":1}');
    expect(bodyText(undefined)).to.equal('');
  });
});
