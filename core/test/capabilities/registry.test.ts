import { expect } from 'chai';
import { CapabilityRegistry, SwitchyardError, canonicalKey, describe as describeCapability, suggestKeys, editDistance } from '../../src/index.js';
import { echoCapability } from '../fixtures.js';

describe('core: registry', () => {
  it('builds the path root > system > key', () => {
    const r = new CapabilityRegistry();
    const c = r.register(echoCapability, 'http://127.0.0.1:9/sse');
    expect(c.path).to.deep.equal(['OIP', 'TEST', 'TEST_ECHO']);
    expect(r.systems().map((s) => s.system)).to.deep.equal(['TEST']);
  });

  it('rejects a duplicate key at registration', () => {
    const r = new CapabilityRegistry();
    r.register(echoCapability);
    expect(() => r.register(echoCapability)).to.throw(/duplicate capability key TEST_ECHO/);
  });

  it('finds a key named in any letter case, answering the registered upper-case key', () => {
    const r = new CapabilityRegistry();
    r.register(echoCapability);
    for (const named of ['test_echo', 'Test_Echo', 'TEST_ECHO']) {
      expect(r.keyOf(named)).to.equal('TEST_ECHO');
      expect(r.has(named)).to.equal(true);
      expect(r.require(named).capability.key).to.equal('TEST_ECHO');
    }
    // Only ASCII letters fold: a dotless ı is not an I.
    expect(canonicalKey('fetch_lıst')).to.equal('FETCH_LıST');
    expect('fetch_lıst'.toUpperCase()).to.equal('FETCH_LIST');
    expect(() => r.require('test_echoo')).to.throw(SwitchyardError).with.property('code', 'unknown_capability');
  });

  it('rejects a lower-case key and a schema strict Ajv will not compile', () => {
    const r = new CapabilityRegistry();
    expect(() => r.register({ ...echoCapability, key: 'test_echo' })).to.throw(/must match/);
    expect(() => r.register({ ...echoCapability, key: 'TEST_BAD', inputs: { type: 'object', propertiez: {} } })).to.throw(/does not compile/);
  });

  it('replaces one system as a whole, counting the change, and leaves it alone when a definition is bad', () => {
    const r = new CapabilityRegistry();
    r.register(echoCapability);
    r.register({ ...echoCapability, key: 'OTHER_KEEP', system: 'OTHER' });
    const v = r.version;
    const change = r.replaceSystem('TEST', [{ ...echoCapability, key: 'TEST_NEW' }], 'http://127.0.0.1:9/mcp');
    expect(change).to.deep.equal({ added: ['TEST_NEW'], removed: ['TEST_ECHO'] });
    expect(r.has('TEST_ECHO')).to.equal(false);
    expect(r.require('TEST_NEW').capability.upstreamUrl).to.equal('http://127.0.0.1:9/mcp');
    expect(r.version).to.be.greaterThan(v);
    const v2 = r.version;
    expect(() => r.replaceSystem('TEST', [{ ...echoCapability, key: 'TEST_OK' }, { ...echoCapability, key: 'TEST_BAD', inputs: { type: 'object', propertiez: {} } }])).to.throw(/does not compile/);
    expect(() => r.replaceSystem('TEST', [{ ...echoCapability, key: 'OTHER_KEEP' }])).to.throw(/duplicate capability key OTHER_KEEP/);
    expect(r.list().map((c) => c.key)).to.deep.equal(['OTHER_KEEP', 'TEST_NEW']);
    expect(r.version).to.equal(v2);
  });

  it('answers unknown keys with did_you_mean, closest first', () => {
    const r = new CapabilityRegistry();
    r.register(echoCapability);
    r.register({ ...echoCapability, key: 'TEST_ECHO_TWICE' });
    try {
      r.require('TEST_ECH');
      expect.fail('should throw');
    } catch (err) {
      expect(SwitchyardError.is(err, 'unknown_capability')).to.equal(true);
      expect((err as SwitchyardError).details['did_you_mean']).to.deep.equal(['TEST_ECHO', 'TEST_ECHO_TWICE']);
    }
  });

  it('suggests by edit distance and containment, and nothing for noise', () => {
    const keys = ['MESSAGING_UPDATE_GROUP', 'MESSAGING_BATCH_LOOKUP_PHONE_NUMBERS', 'WEB_FETCH'];
    expect(suggestKeys('messaging_update_grop', keys)[0]).to.equal('MESSAGING_UPDATE_GROUP');
    expect(suggestKeys('WEB_FETCHH', keys)).to.deep.equal(['WEB_FETCH']);
    expect(suggestKeys('ZZZZZZZZZZZZZZZZZZZZZZZZZZ', keys)).to.deep.equal([]);
    expect(editDistance('kitten', 'sitting')).to.equal(3);
  });

  it('suggests a key holding every word of a shorter query', () => {
    const keys = ['EDGE_BUILDS_WORKERS_BUILDS_SET_ACTIVE_WORKER', 'MESSAGING_UPDATE_GROUP', 'MESSAGING_BATCH_LOOKUP_PHONE_NUMBERS'];
    expect(suggestKeys('EDGE_SET_WORKER', keys)).to.deep.equal(['EDGE_BUILDS_WORKERS_BUILDS_SET_ACTIVE_WORKER']);
    expect(suggestKeys('PHONE_LOOKUP', keys)[0]).to.equal('MESSAGING_BATCH_LOOKUP_PHONE_NUMBERS');
    expect(suggestKeys('EDGE_PHONE', keys)).to.deep.equal([]);
  });

  it('describes a capability with every field of the spec table', () => {
    const r = new CapabilityRegistry();
    const c = r.register({ ...echoCapability, type: 'tool', tool: 'echo' }, 'http://127.0.0.1:9/mcp');
    const d = describeCapability(c, 'http://h:1');
    expect(Object.keys(d)).to.deep.equal(['Path', 'Capability', 'run_now', 'Example call', 'type · runner', 'inputs', 'outputs', 'auth · risk', 'From the router']);
    expect(d.Path).to.equal('OIP > TEST > TEST_ECHO');
    expect(d.Capability).to.equal('TEST_ECHO: Echoes its arguments back. (tool server: http://127.0.0.1:9/mcp)');
    expect(d.run_now).to.equal('http://h:1/api/dispatch?invoke=TEST_ECHO&body=<arg1>&share=<TOKEN>');
    expect(d['Example call']).to.equal('[TEST_ECHO]{"text":"hello"}[/TEST_ECHO]');
    expect(d['type · runner']).to.equal('tool · test');
    expect(d['auth · risk']).to.equal('none · low');
    expect(d['From the router']).to.equal('[TEST_ECHO]<args>[/TEST_ECHO] in text sent to POST http://h:1/api/route');
    expect(Object.keys(d.outputs)).to.deep.equal(['ok', 'error', 'result', 'invocation', 'yield', '_self']);
    expect(describeCapability({ ...c, auth: 'required', risk: 'high', approval: true }, 'http://h:1')['auth · risk']).to.equal('required · high · approval required');
  });

  it('cuts long descriptions short', () => {
    const r = new CapabilityRegistry();
    const c = r.register({ ...echoCapability, description: 'x'.repeat(500) });
    expect(describeCapability(c, 'http://h').Capability.length).to.be.lessThan(200);
  });
});
