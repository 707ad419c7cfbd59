// The messages a bad setting is refused with are whole: a filter's parse error keeps every line
// filtrex gives (where, a caret, what it expected), and a webhook's settings are refused naming the
// field, one check for the API and the dashboard's forms alike.
import { expect } from 'chai';
import { readDestinationSettings } from '../../src/forwarding/destination.js';
import { readWebhookChanges } from '../../src/webhooks/webhook-settings.js';
import { SwitchyardError } from '../../src/errors.js';

const refusal = (f: () => unknown): SwitchyardError => {
  try {
    f();
  } catch (err) {
    if (SwitchyardError.is(err)) return err;
    throw err;
  }
  throw new Error('expected a refusal');
};

describe('setting messages', () => {
  it('a filter that does not parse is refused with filtrex\'s whole message, every line', () => {
    const err = refusal(() => readDestinationSettings({ url: 'https://example.com/in', filter: 'body.amount >' }, null));
    expect(err.code).to.equal('invalid_request');
    expect(err.message.split('\n')).to.deep.equal([
      'filter: does not parse: Parse error on line 1:',
      'body.amount >',
      '-------------^',
      "Expecting '-', 'not', 'if', '(', 'Number', 'Symbol', 'String', got 'EndOfExpression'",
    ]);
  });

  it('webhook settings: a name is required to create, on only when changing, a scheme needs its secret', () => {
    expect(readWebhookChanges({ name: 'Orders' }, true)).to.deep.equal({ name: 'Orders' });
    expect(refusal(() => readWebhookChanges({}, true)).message).to.match(/^name must be a non-empty string/);
    expect(refusal(() => readWebhookChanges({ name: 'x', on: false }, true)).message).to.equal('unknown field(s) on');
    expect(readWebhookChanges({ on: false }, false)).to.deep.equal({ on: false });
    const noSecret = refusal(() => readWebhookChanges({ signature: { scheme: 'github', secret: '' } }, false));
    expect(noSecret.code).to.equal('invalid_request');
    expect(noSecret.message).to.match(/^signature\.secret /);
    expect(readWebhookChanges({ signature: null }, false)).to.deep.equal({ signature: null });
  });
});
