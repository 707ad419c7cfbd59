import { expect } from 'chai';
import { CapabilityRegistry, stem, tokenize, terminalKey, type CapabilityDefinition } from '../../src/index.js';
import { echoCapability } from '../fixtures.js';

// Shaped like the spec's capabilities: what a question has to find.
const spec: CapabilityDefinition[] = [
  { ...echoCapability, key: 'EDGE_BUILDS_WORKERS_BUILDS_SET_ACTIVE_WORKER', system: 'EDGE', description: 'Sets the active worker id used by later calls', inputs: { type: 'object', properties: { workerId: { type: 'string' } } } },
  { ...echoCapability, key: 'MESSAGING_UPDATE_GROUP', system: 'MESSAGING', description: 'Renames a group', inputs: { type: 'object', properties: { groupId: { type: 'string' }, name: { type: 'string' } } } },
  { ...echoCapability, key: 'MESSAGING_BATCH_LOOKUP_PHONE_NUMBERS', system: 'MESSAGING', description: 'Looks up up to 100 phone numbers at once; needs an enterprise plan', inputs: { type: 'object', properties: { phoneNumbers: { type: 'array', items: { type: 'string' } } } } },
  { ...echoCapability, key: 'PAYMENTS_PROCESSOR_API_SEARCH', system: 'PAYMENTS', description: "Searches a payment processor's API operations by keyword", inputs: { type: 'object', properties: { query: { type: 'string' }, limit: { type: 'integer' } } }, example: { query: 'refund a payment', limit: 5 } },
  { ...echoCapability, key: 'WEB_FETCH', system: 'WEB', description: 'Fetches a URL over HTTP(S) and returns status, headers and body', inputs: { type: 'string' } },
];

const registryOf = (defs: CapabilityDefinition[]): CapabilityRegistry => {
  const r = new CapabilityRegistry();
  for (const d of defs) r.register(d);
  return r;
};

describe('core: ask (capability index)', () => {
  const r = registryOf(spec);

  const top = (q: string) => r.ask(q).hits[0]?.key;

  it('answers plain-language questions with the capability that does it', () => {
    expect(top('rename a chat group')).to.equal('MESSAGING_UPDATE_GROUP');
    expect(top('check whether phone numbers are valid')).to.equal('MESSAGING_BATCH_LOOKUP_PHONE_NUMBERS');
    expect(top('switch the active worker')).to.equal('EDGE_BUILDS_WORKERS_BUILDS_SET_ACTIVE_WORKER');
    expect(top('search payment API operations')).to.equal('PAYMENTS_PROCESSOR_API_SEARCH');
    expect(top('fetch a web page')).to.equal('WEB_FETCH');
  });

  it('matches input property names, typos and prefixes', () => {
    expect(top('workerId')).to.equal('EDGE_BUILDS_WORKERS_BUILDS_SET_ACTIVE_WORKER');
    expect(top('phnoe numbres')).to.equal('MESSAGING_BATCH_LOOKUP_PHONE_NUMBERS');
    expect(top('paym')).to.equal('PAYMENTS_PROCESSOR_API_SEARCH');
    expect(r.ask('workerId').hits[0]!.matched).to.include('inputs');
  });

  it('finds a capability by the words of its example call, not by its ids or numbers', () => {
    expect(top('refund')).to.equal('PAYMENTS_PROCESSOR_API_SEARCH');
    expect(top('refunds')).to.equal('PAYMENTS_PROCESSOR_API_SEARCH');
    expect(r.ask('refund').hits[0]!.matched).to.deep.equal(['example']);
    const withIds = registryOf([{ ...spec[0]!, example: { workerId: '3f9a1c07d2b84e6fa5c0e1d2b3a49f81', note: 'grp_4f7c2a9d1e' } }]);
    expect(withIds.ask('3f9a1c07d2b84e6fa5c0e1d2b3a49f81').hits).to.deep.equal([]);
    expect(withIds.ask('4f7c2a9d1e').hits).to.deep.equal([]);
  });

  it('puts an exactly named key first, in any case, with no did_you_mean', () => {
    const answer = r.ask('messaging_update_group');
    expect(answer).to.include({ keyShaped: true, exact: 'MESSAGING_UPDATE_GROUP' });
    expect(answer.hits[0]!.key).to.equal('MESSAGING_UPDATE_GROUP');
    expect(answer.didYouMean).to.deep.equal([]);
  });

  it('answers a key-shaped question naming no key with did_you_mean', () => {
    const answer = r.ask('MESSAGING_UPDATE_GRUOP');
    expect(answer).to.include({ keyShaped: true, exact: null });
    expect(answer.didYouMean[0]).to.equal('MESSAGING_UPDATE_GROUP');
  });

  it('finds nothing for noise or stop words alone, and limits the hits', () => {
    expect(r.ask('zzqx vvwy').hits).to.deep.equal([]);
    expect(r.ask('how do I').hits).to.deep.equal([]);
    expect(r.ask('').hits).to.deep.equal([]);
    expect(r.ask('a', 2).hits.length).to.be.at.most(2);
    expect(r.ask('messaging', 1).hits).to.have.length(1);
  });

  it('follows registry changes', () => {
    const r2 = registryOf(spec);
    expect(r2.ask('summarise a document').hits).to.deep.equal([]);
    r2.register({ ...echoCapability, key: 'DOCS_SUMMARISE', system: 'DOCS', description: 'Summarises a document' });
    expect(r2.ask('summarise a document').hits[0]!.key).to.equal('DOCS_SUMMARISE');
  });

  it('suggests the same keys as before for small registries, and close keys among ten thousand', () => {
    expect(r.suggest('EDGE_SET_WORKER')[0]).to.equal('EDGE_BUILDS_WORKERS_BUILDS_SET_ACTIVE_WORKER');
    const big = registryOf([
      ...spec,
      ...Array.from({ length: 10_000 }, (_, i) => ({ ...echoCapability, key: `SYNTH${i % 50}_OPERATION_${i}`, system: `SYNTH${i % 50}`, description: `Synthetic operation ${i}` })),
    ]);
    expect(big.suggest('MESSAGING_UPDATE_GRUOP')[0]).to.equal('MESSAGING_UPDATE_GROUP');
    expect(big.suggest('SYNTH7_OPERATON_1207')[0]).to.equal('SYNTH7_OPERATION_1207');
  });

  it('tokenizes identifiers and stems word forms together', () => {
    expect(tokenize('EDGE_SET workerId phone-numbers')).to.deep.equal(['EDGE', 'SET', 'worker', 'Id', 'phone', 'numbers']);
    expect(['renames', 'renaming', 'rename', 'renamed'].map(stem)).to.deep.equal(['renam', 'renam', 'renam', 'renam']);
    expect(stem('queries')).to.equal('query');
  });
});

describe('core: build map and terminal key', () => {
  it('is the same for the same definitions in any order and wherever their upstreams listen', () => {
    const a = registryOf(spec);
    const b = new CapabilityRegistry();
    for (const d of [...spec].reverse()) b.register(d, 'http://127.0.0.1:40123/mcp');
    expect(b.build().terminalKey).to.equal(a.build().terminalKey);
    expect(a.build().terminalKey).to.match(/^sha256:[0-9a-f]{64}$/);
    expect(a.build().count).to.equal(5);
    expect(a.build().systems.map((s) => s.system)).to.deep.equal(['EDGE', 'MESSAGING', 'PAYMENTS', 'WEB']);
  });

  it('changes when any definition changes, and only then', () => {
    const r = registryOf(spec);
    const before = r.build().terminalKey;
    expect(r.build().terminalKey).to.equal(before);
    const changed = registryOf(spec.map((d) => (d.key === 'WEB_FETCH' ? { ...d, risk: 'high' as const } : d)));
    expect(changed.build().terminalKey).to.not.equal(before);
    r.register({ ...echoCapability, key: 'EXTRA_ONE', system: 'EXTRA' });
    expect(r.build().terminalKey).to.not.equal(before);
    expect(terminalKey(r.list())).to.equal(r.build().terminalKey);
  });
});
