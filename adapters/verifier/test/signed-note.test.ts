import { expect } from 'chai';
import { NoteError, checkpointText, generateSignerSeed, noteSigner, noteVerifier, openNote, parseCheckpoint, signNote } from '../src/index.js';

import { vectorFiles } from './vectors.js';

// The example note of the c2sp.org/signed-note specification (test/vectors/c2sp).
const vector = JSON.parse(vectorFiles('c2sp').find((f) => f.name.endsWith('signed-note.json'))!.text) as { verifier_key: string; note: string; text: string };
const VKEY = vector.verifier_key;
const NOTE = vector.note;

describe('verifier: signed notes and checkpoints', () => {
  it('verifies the signed-note vector', () => {
    const opened = openNote(NOTE, [noteVerifier(VKEY)]);
    expect(opened).to.deep.equal({ text: vector.text, verifiedBy: ['example.com/foo'] });
  });

  it('refuses the vector with one changed byte of text or signature', () => {
    expect(() => openNote(NOTE.replace('example message', 'example massage'), [noteVerifier(VKEY)])).to.throw(NoteError, /invalid signature/);
    expect(() => openNote(NOTE.replace('Uw2QOkn8', 'Uw2QOkn9'), [noteVerifier(VKEY)])).to.throw(NoteError);
  });

  it('ignores signatures by unknown keys but needs one known signer', () => {
    const other = noteSigner('other.example/log', generateSignerSeed());
    expect(() => openNote(NOTE, [noteVerifier(other.verifierKey)])).to.throw(NoteError, /no signature by a known key/);
    const both = signNote('This is an example message.\n', other);
    expect(openNote(both, [noteVerifier(other.verifierKey), noteVerifier(VKEY)]).verifiedBy).to.deep.equal(['other.example/log']);
  });

  it('round-trips our own signer through its published verifier key', () => {
    const signer = noteSigner('switchyard.test/ledger', generateSignerSeed());
    expect(signer.verifierKey).to.match(/^switchyard\.test\/ledger\+[0-9a-f]{8}\+A[A-Za-z0-9+/]{43}$/);
    const note = signNote(checkpointText({ origin: 'switchyard.test/ledger', size: 3, root: new Uint8Array(32).fill(7) }), signer);
    const opened = openNote(note, [noteVerifier(signer.verifierKey)]);
    expect(parseCheckpoint(opened.text)).to.deep.equal({ origin: 'switchyard.test/ledger', size: 3, root: new Uint8Array(32).fill(7) });
  });

  it('refuses malformed verifier keys, notes and checkpoints', () => {
    expect(() => noteVerifier('example.com/foo+530d903b+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k')).to.throw(NoteError, /key id/);
    expect(() => noteVerifier('nonsense')).to.throw(NoteError);
    expect(() => openNote('no signature block\n', [noteVerifier(VKEY)])).to.throw(NoteError);
    expect(() => parseCheckpoint('origin\n01\nAAAA\n')).to.throw(NoteError);
    expect(() => parseCheckpoint('origin\n1\n' + Buffer.alloc(31).toString('base64') + '\n')).to.throw(NoteError);
  });
});
