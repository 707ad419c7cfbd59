import { expect } from 'chai';
import { NoteError, checkpointText, cosignedMessage, cosigner, generateSignerSeed, noteSigner, openNote, noteVerifier, openWitnessedNote, signNote, signatureLines, verifyCosignatures, witnessKey } from '../src/index.js';

const log = noteSigner('log.example/ledger', generateSignerSeed());
const text = checkpointText({ origin: 'log.example/ledger', size: 42, root: new Uint8Array(32).fill(9) });
const w1 = cosigner('witness.example/w1', generateSignerSeed());
const w2 = cosigner('witness.example/w2', generateSignerSeed());
const w3 = cosigner('witness.example/w3', generateSignerSeed());

describe('verifier: witness cosignatures (c2sp.org/tlog-cosignature, cosignature/v1)', () => {
  it('writes the signed message and the key as the spec does (type 0x04, timestamp before the signature)', () => {
    expect(cosignedMessage(text, 1679315147)).to.equal(`cosignature/v1\ntime 1679315147\n${text}`);
    expect(w1.verifierKey).to.match(/^witness\.example\/w1\+[0-9a-f]{8}\+B[A-Za-z0-9+/]{43}$/);
    const line = w1.cosign(text, 1679315147);
    const bytes = Buffer.from(line.trim().split(' ')[2]!, 'base64');
    expect(bytes).to.have.length(4 + 8 + 64);
    expect(bytes.readBigUInt64BE(4)).to.equal(1679315147n);
    expect(Buffer.from(witnessKey(w1.verifierKey).keyId).equals(bytes.subarray(0, 4))).to.equal(true);
  });

  it('verifies cosignatures of trusted witnesses, ignores unknown ones, and reports a trusted one that does not verify', () => {
    const other = checkpointText({ origin: 'log.example/ledger', size: 43, root: new Uint8Array(32).fill(9) });
    const lines = [w1.cosign(text, 100), w2.cosign(other, 101), w3.cosign(text, 102), '\u2014 unknown.example/w9 AAAAAAAAAAAAAAAA\n'];
    const { valid, invalid } = verifyCosignatures(text, lines, [w1.verifierKey, w2.verifierKey].map(witnessKey));
    expect(valid.map((c) => [c.witness, c.timestamp])).to.deep.equal([['witness.example/w1', 100]]);
    expect(invalid).to.deep.equal(['witness.example/w2']);
  });

  it('holds a checkpoint to a k-of-n policy, beside the log signature that still opens as before', () => {
    const note = signNote(text, log) + w1.cosign(text, 1) + w3.cosign(text, 2);
    expect(openNote(note, [noteVerifier(log.verifierKey)]).verifiedBy).to.deep.equal(['log.example/ledger']);
    expect(signatureLines(note).lines).to.have.length(3);
    const policy = (needed: number) => ({ witnesses: [w1.verifierKey, w2.verifierKey, w3.verifierKey], needed });
    expect(openWitnessedNote(note, log.verifierKey, policy(2)).cosignedBy).to.deep.equal(['witness.example/w1', 'witness.example/w3']);
    expect(() => openWitnessedNote(note, log.verifierKey, policy(3))).to.throw(NoteError, /cosigned by 2 of the 3 trusted witnesses, 3 needed/);
    expect(() => openWitnessedNote(note, log.verifierKey, policy(4))).to.throw(NoteError, /cannot be met/);
    // The same witness twice counts once; a lying cosignature (over another tree) is named.
    const twice = signNote(text, log) + w1.cosign(text, 1) + w1.cosign(text, 2) + w2.cosign(text.replace('42', '41'), 3);
    expect(() => openWitnessedNote(twice, log.verifierKey, policy(2))).to.throw(NoteError, /1 of the 3 .* invalid cosignatures by witness\.example\/w2/);
    // Without the log's own signature nothing counts.
    expect(() => openWitnessedNote(`${text}\n${w1.cosign(text, 1)}${w2.cosign(text, 1)}`, log.verifierKey, policy(2))).to.throw(NoteError, /no signature by a known key/);
  });

  it('refuses malformed witness keys and log keys offered as witness keys', () => {
    expect(() => witnessKey(log.verifierKey)).to.throw(NoteError, /0x04/);
    expect(() => witnessKey('nonsense')).to.throw(NoteError, /malformed/);
    expect(() => witnessKey(w1.verifierKey.replace(/\+[0-9a-f]{8}\+/, '+00000000+'))).to.throw(NoteError, /key id/);
  });
});
