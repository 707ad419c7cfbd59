// Sealing upstream credentials: AES-256-GCM under a key ring, the server's name bound to each record.
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { CredentialSealer } from '../../src/upstream/upstream-auth-sealer.js';

const key = (kid: string) => ({ kid, secret: randomBytes(32).toString('base64') });

describe('CredentialSealer', () => {
  it('opens what it sealed, and never seals the same text the same way twice', () => {
    const sealer = new CredentialSealer([key('k1')]);
    const a = sealer.seal('{"access_token":"secret-token"}', 'calendar');
    const b = sealer.seal('{"access_token":"secret-token"}', 'calendar');
    expect(a).to.not.equal(b);
    expect(a).to.not.contain('secret-token');
    expect(sealer.open(a, 'calendar')).to.equal('{"access_token":"secret-token"}');
  });

  it('opens records of an older key put after a new one, and seals with the newest (rotation)', () => {
    const older = key('k1');
    const newer = key('k2');
    const sealed = new CredentialSealer([older]).seal('{}', 'calendar');
    const rotated = new CredentialSealer([newer, older]);
    expect(rotated.open(sealed, 'calendar')).to.equal('{}');
    expect(rotated.isStale(sealed)).to.equal(true);
    expect(rotated.seal('{}', 'calendar')).to.match(/^v1\.k2\./);
    expect(rotated.isStale(rotated.seal('{}', 'calendar'))).to.equal(false);
    expect(() => new CredentialSealer([newer]).open(sealed, 'calendar')).to.throw(/k1/);
  });

  it('refuses a tampered record, one of another server, and keys that are not 32 bytes', () => {
    const sealer = new CredentialSealer([key('k1')]);
    const sealed = sealer.seal('{"a":1}', 'calendar');
    const [v, kid, nonce, body, tag] = sealed.split('.') as [string, string, string, string, string];
    const flipped = Buffer.from(body, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    expect(() => sealer.open([v, kid, nonce, flipped.toString('base64url'), tag].join('.'), 'calendar')).to.throw();
    expect(() => sealer.open(sealed, 'reports')).to.throw();
    expect(() => sealer.open('not sealed', 'calendar')).to.throw(/not a sealed/);
    expect(() => new CredentialSealer([{ kid: 'k1', secret: randomBytes(16).toString('base64') }])).to.throw(/32 bytes/);
    expect(() => new CredentialSealer([])).to.throw();
  });
});
