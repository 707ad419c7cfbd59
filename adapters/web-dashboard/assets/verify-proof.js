// Verifies an invocation's or a delivery's public proof in the browser, trusting nothing but the verifier key:
//   1. the leaf hash is SHA-256(0x00 || leaf text)                       (RFC 6962 §2.1)
//   2. the inclusion proof leads from that leaf to the checkpoint's root  (RFC 9162 §2.1.3.2)
//   3. the checkpoint is signed by the published Ed25519 key              (C2SP signed-note)
//   4. the record this page shows opens the leaf: its public fields equal the leaf's, and each
//      private field, with the page's salt, hashes to the leaf's commitment (a version 2 leaf
//      names every field that does not; version 1 commits to them together)
//   5. with a witness policy: k of the given witnesses cosigned it        (C2SP tlog-cosignature)
'use strict';

const enc = new TextEncoder();
const fromB64 = (s) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
const fromHex = (s) => Uint8Array.from(s.match(/../g) ?? [], (h) => parseInt(h, 16));
const concat = (...parts) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
};
const sha256 = async (bytes) => new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
const equal = (a, b) => a.length === b.length && a.every((v, i) => v === b[i]);

/** RFC 8785 canonical JSON: keys in UTF-16 code-unit order, ECMAScript strings and numbers. */
const canonical = (v) =>
  v === null || typeof v !== 'object'
    ? JSON.stringify(v)
    : Array.isArray(v)
      ? `[${v.map((x) => canonical(x === undefined ? null : x)).join(',')}]`
      : `{${Object.keys(v).filter((k) => v[k] !== undefined).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(',')}}`;
const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
const commitment = async (salt, value) => `sha256:${hex(await sha256(enc.encode(salt + canonical(value))))}`;

/** The fields of the shown record that the leaf does not vouch for, by name. */
async function fieldsNotMatching(leaf, record) {
  const bad = Object.keys(record.public).filter((f) => canonical(leaf[f] ?? null) !== canonical(record.public[f] ?? null));
  if (leaf.v === 2) {
    const committed = leaf.commitments ?? {};
    const fields = new Set([...Object.keys(committed), ...Object.keys(record.private).filter((f) => record.private[f] !== undefined)]);
    for (const f of fields) {
      const opened = record.private[f] === undefined ? undefined : await commitment(record.salt, { [f]: record.private[f] });
      if (opened !== committed[f]) bad.push(f);
    }
  } else if ((await commitment(record.salt, record.private)) !== leaf.commitment) {
    bad.push('private fields');
  }
  return [...new Set(bad)].sort();
}

async function rootFromInclusion(leafHash, index, size, proof) {
  if (index >= size) throw new Error('leaf index beyond the tree');
  let fn = index;
  let sn = size - 1;
  let r = leafHash;
  for (const p of proof) {
    if (sn === 0) throw new Error('proof longer than the tree');
    if (fn % 2 === 1 || fn === sn) {
      r = await sha256(concat(Uint8Array.of(1), p, r));
      if (fn % 2 === 0) while (fn % 2 === 0 && fn !== 0) { fn = Math.floor(fn / 2); sn = Math.floor(sn / 2); }
    } else {
      r = await sha256(concat(Uint8Array.of(1), r, p));
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  if (sn !== 0) throw new Error('proof shorter than the tree');
  return r;
}

/** A verifier key "name+hash+base64(0x01 || key)" → its name, 4-byte key hash and raw Ed25519 key. */
async function parseVerifierKey(text) {
  // The base64 part may itself hold '+': split at the first two only.
  const parts = /^([^+\s]+)\+([0-9a-f]{8})\+([A-Za-z0-9+/=]+)$/.exec(text);
  if (!parts) throw new Error('not a verifier key');
  const [, name, hashHex, keyB64] = parts;
  const material = fromB64(keyB64);
  if (material[0] !== 1 || material.length !== 33) throw new Error('not an Ed25519 verifier key');
  const keyHash = (await sha256(concat(enc.encode(`${name}\n`), material))).slice(0, 4);
  if (!equal(keyHash, fromHex(hashHex))) throw new Error('verifier key hash does not match');
  return { name, keyHash, publicKey: material.slice(1) };
}

/** Checks the note's signature by the key; answers the signed checkpoint's size and root. */
async function verifyCheckpoint(note, key) {
  const split = note.indexOf('\n\n');
  if (split < 0) throw new Error('checkpoint has no signature block');
  const text = note.slice(0, split + 1);
  const lines = note.slice(split + 2).split('\n').filter(Boolean);
  const ours = lines.map((l) => /^\u2014 (\S+) (\S+)$/.exec(l)).find((m) => m && m[1] === key.name && equal(fromB64(m[2]).slice(0, 4), key.keyHash));
  if (!ours) throw new Error('no signature by the pinned key');
  const signature = fromB64(ours[2]).slice(4);
  const cryptoKey = await crypto.subtle.importKey('raw', key.publicKey, { name: 'Ed25519' }, false, ['verify']);
  if (!(await crypto.subtle.verify('Ed25519', cryptoKey, signature, enc.encode(text)))) throw new Error('checkpoint signature is invalid');
  const [origin, size, root] = text.split('\n');
  if (origin !== key.name) throw new Error('checkpoint is for another log');
  return { size: Number(size), root: fromB64(root) };
}

/** A witness key "name+hash+base64(0x04 || key)" (Ed25519 cosignature/v1). */
async function parseWitnessKey(text) {
  const parts = /^([^+\s]+)\+([0-9a-f]{8})\+([A-Za-z0-9+/=]+)$/.exec(text);
  if (!parts) throw new Error(`not a witness key: ${text.slice(0, 40)}`);
  const [, name, hashHex, keyB64] = parts;
  const material = fromB64(keyB64);
  if (material[0] !== 4 || material.length !== 33) throw new Error(`${name}: not an Ed25519 cosignature/v1 key`);
  const keyHash = (await sha256(concat(enc.encode(`${name}\n`), material))).slice(0, 4);
  if (!equal(keyHash, fromHex(hashHex))) throw new Error(`${name}: witness key hash does not match`);
  return { name, keyHash, publicKey: material.slice(1) };
}

/** The distinct witnesses whose cosignature over the checkpoint text verifies; and those whose does not. */
async function cosigners(note, witnesses) {
  const split = note.indexOf('\n\n');
  const text = note.slice(0, split + 1);
  const valid = new Set();
  const invalid = new Set();
  for (const line of note.slice(split + 2).split('\n').filter(Boolean)) {
    const m = /^\u2014 (\S+) (\S+)$/.exec(line);
    if (!m) continue;
    const bytes = fromB64(m[2]);
    const witness = witnesses.find((w) => w.name === m[1] && equal(bytes.slice(0, 4), w.keyHash));
    if (!witness) continue;
    let ok = bytes.length === 76;
    if (ok) {
      const time = new DataView(bytes.buffer, bytes.byteOffset + 4, 8).getBigUint64(0);
      const cryptoKey = await crypto.subtle.importKey('raw', witness.publicKey, { name: 'Ed25519' }, false, ['verify']);
      ok = await crypto.subtle.verify('Ed25519', cryptoKey, bytes.slice(12), enc.encode(`cosignature/v1\ntime ${time}\n${text}`));
    }
    (ok ? valid : invalid).add(witness.name);
  }
  return { valid: [...valid], invalid: [...invalid].filter((n) => !valid.has(n)) };
}

/** The policy typed on the page: witness keys (one per line) and how many must have cosigned. */
async function witnessPolicy() {
  const lines = (document.getElementById('witness-keys')?.value ?? '').split('\n').map((l) => l.trim()).filter(Boolean);
  if (lines.length === 0) return null;
  const witnesses = await Promise.all(lines.map(parseWitnessKey));
  const typed = document.getElementById('witnesses-needed')?.value ?? '';
  const needed = typed === '' ? witnesses.length : Number(typed);
  if (!Number.isInteger(needed) || needed < 1 || needed > witnesses.length) throw new Error(`witnesses needed must be from 1 to ${witnesses.length}`);
  return { witnesses, needed };
}

async function verify(button) {
  const status = document.getElementById('proof-status');
  const steps = document.getElementById('proof-steps');
  const step = (text, ok) => {
    const li = document.createElement('li');
    li.textContent = `${ok ? '✓' : '✗'} ${text}`;
    li.className = ok ? 'ok' : 'bad';
    steps.append(li);
  };
  steps.textContent = '';
  status.className = 'proof';
  status.textContent = 'Checking…';
  try {
    const [confirm, keyInfo] = await Promise.all([fetch(button.dataset.confirm).then((r) => r.json()), fetch(button.dataset.key).then((r) => r.json())]);
    if (confirm.status !== 'integrated') {
      status.textContent = 'Recorded, not yet in the Merkle tree: try again in a moment.';
      return;
    }
    const key = await parseVerifierKey(keyInfo.verifier_key);
    step(`verifier key ${keyInfo.verifier_key.split('+').slice(0, 2).join('+')}`, true);
    const leafHash = await sha256(concat(Uint8Array.of(0), enc.encode(confirm.leaf_text)));
    if (!equal(leafHash, fromHex(confirm.leaf_hash))) throw new Error('leaf hash does not match the leaf');
    step(`leaf ${confirm.index} hashes to ${confirm.leaf_hash.slice(0, 16)}…`, true);
    const checkpoint = await verifyCheckpoint(confirm.checkpoint, key);
    step(`checkpoint of size ${checkpoint.size} signed by the pinned key`, true);
    const root = await rootFromInclusion(leafHash, confirm.index, checkpoint.size, confirm.inclusion_proof.map(fromB64));
    if (!equal(root, checkpoint.root)) throw new Error('inclusion proof does not lead to the signed root');
    step(`inclusion proof (${confirm.inclusion_proof.length} hashes) leads to the signed root`, true);
    if (button.dataset.record) {
      const record = JSON.parse(button.dataset.record);
      const leaf = JSON.parse(confirm.leaf_text);
      // An erased entry: only the fields its erasure entry names may not open, and that entry must
      // itself be in the log under the same key (docs/proofs.md#erasure).
      let erased = [];
      if (record.erasure) {
        const e = await fetch(`/api/dispatch?confirm=${encodeURIComponent(record.erasure)}`).then((r) => r.json());
        if (e.status !== 'integrated') {
          status.textContent = 'Erased; the erasure is not yet in the Merkle tree: try again in a moment.';
          return;
        }
        const eHash = await sha256(concat(Uint8Array.of(0), enc.encode(e.leaf_text)));
        const eCheckpoint = await verifyCheckpoint(e.checkpoint, key);
        const eRoot = await rootFromInclusion(eHash, e.index, eCheckpoint.size, e.inclusion_proof.map(fromB64));
        if (!equal(eRoot, eCheckpoint.root)) throw new Error('the erasure\'s inclusion proof does not lead to the signed root');
        const eLeaf = JSON.parse(e.leaf_text);
        if (eLeaf.kind !== 'erasure' || eLeaf.entry !== confirm.id || !Array.isArray(eLeaf.fields)) throw new Error(`the erasure ${record.erasure} does not record an erasure of ${confirm.id}`);
        erased = eLeaf.fields;
        step(`erased at ${eLeaf.erased_at}: ${erased.join(', ')} (the erasure ${eLeaf.id} is leaf ${e.index})`, true);
      }
      // A delivery's body: its stored bytes, hashed here, stand in for the recorded SHA-256.
      if (record.body) {
        const got = await fetch(record.body);
        if (!got.ok) throw new Error(`the stored body could not be read (HTTP ${got.status})`);
        record.private.body_sha256 = hex(await sha256(new Uint8Array(await got.arrayBuffer())));
        step(`the stored body hashes to ${record.private.body_sha256.slice(0, 16)}…`, true);
      }
      const bad = (await fieldsNotMatching(leaf, record)).filter((f) => !erased.includes(f)).map((f) => (record.body && f === 'body_sha256' ? 'body' : f));
      if (bad.length > 0) throw new Error(`the record shown differs from its leaf in ${bad.join(', ')}`);
      step(erased.length ? `every field not erased opens its leaf` : `the record shown opens its leaf (${Object.keys(record.public).length + Object.keys(record.private).length} fields)`, true);
    }
    const policy = await witnessPolicy();
    let cosigned = '';
    if (policy) {
      const { valid, invalid } = await cosigners(confirm.checkpoint, policy.witnesses);
      const bad = invalid.length ? `; invalid cosignatures by ${invalid.join(', ')}` : '';
      if (valid.length < policy.needed) throw new Error(`cosigned by ${valid.length} of the ${policy.witnesses.length} trusted witnesses, ${policy.needed} needed${bad}`);
      step(`cosigned by ${valid.join(', ')} (${valid.length} of ${policy.witnesses.length}, ${policy.needed} needed)`, true);
      cosigned = `, cosigned by ${valid.length} of ${policy.witnesses.length} witnesses`;
    }
    status.textContent = `Verified: ${confirm.id} is leaf ${confirm.index} of ${key.name} at size ${checkpoint.size}${cosigned}.`;
    status.className = 'proof verified';
  } catch (err) {
    step(err.message, false);
    status.textContent = `Not verified: ${err.message}`;
    status.className = 'proof failed';
  }
}

document.addEventListener('DOMContentLoaded', () => {
  const button = document.getElementById('verify-proof');
  if (button) button.addEventListener('click', () => verify(button));
});
