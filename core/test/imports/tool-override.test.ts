import { expect } from 'chai';
import { CapabilityRegistry, applyOverride, importTools, overrideHash, overrideOf, overrideProblems, reviewListing, withFixed, withoutFixed, type ToolPin } from '../../src/index.js';

const search = {
  name: 'search',
  description: 'Searches an account',
  inputSchema: { type: 'object', properties: { account: { type: 'string' }, query: { type: 'string' }, limit: { type: 'integer' } }, required: ['account', 'query', 'limit'], additionalProperties: false },
};
const imported = () => importTools({ name: 'crm', system: 'CRM' }, [search]).definitions[0]!;
const AT = 'upstreams.servers.crm.tools.search';

describe('core: per-tool overrides', () => {
  it('takes only the override fields of a tool\'s config entry', () => {
    expect(overrideOf({ auth: 'none', risk: 'low' })).to.equal(undefined);
    expect(overrideOf({ auth: 'none', title: 'Find' })).to.deep.equal({ title: 'Find' });
    expect(overrideOf(undefined)).to.equal(undefined);
  });

  it('renames, retitles and redescribes what callers are shown; the upstream is still called by its own name', () => {
    const c = applyOverride(imported(), { name: 'find_customer', title: 'Find a customer', description: 'Finds a customer by name' })!;
    expect(c).to.include({ key: 'CRM_FIND_CUSTOMER', shown_name: 'find_customer', tool: 'search', title: 'Find a customer', description: 'Finds a customer by name' });
    expect(c.override_hash).to.match(/^sha256:[0-9a-f]{64}$/);
    expect(c.definition_hash).to.equal(imported().definition_hash);
  });

  it('removes fixed arguments from the shown schema and shows defaults; a caller\'s value for a fixed one is replaced', () => {
    const c = applyOverride(imported(), { fixed: { account: 'acme' }, default_arguments: { limit: 10 } })!;
    expect(c.inputs['properties']).to.deep.equal({ query: { type: 'string' }, limit: { type: 'integer', default: 10 } });
    expect(c.inputs['required']).to.deep.equal(['query']);
    expect(c.example).to.deep.equal({ query: 'example' });
    const registry = new CapabilityRegistry();
    registry.register(c);
    const { capability, validate } = registry.require(c.key);
    const sent = withoutFixed(capability, { account: 'someone-else', query: 'ada' }) as Record<string, unknown>;
    expect(validate(sent)).to.deep.equal([]);
    // Ajv applied the default; the fixed value replaced the caller's.
    expect(withFixed(capability, sent)).to.deep.equal({ query: 'ada', limit: 10, account: 'acme' });
  });

  it('hides a tool altogether', () => {
    expect(applyOverride(imported(), { hidden: true })).to.equal(null);
  });

  it('names by config key an argument the tool does not have, one both fixed and defaulted, and a name that makes no key', () => {
    expect(overrideProblems(search, { fixed: { acount: 'x' } }, AT, 'CRM')).to.deep.equal([{ key: `${AT}.fixed.acount`, message: 'tool search has no argument acount (it has: account, limit, query)' }]);
    expect(overrideProblems(search, { default_arguments: { nope: 1 } }, AT, 'CRM')[0]!.key).to.equal(`${AT}.default_arguments.nope`);
    expect(overrideProblems(search, { fixed: { limit: 1 }, default_arguments: { limit: 2 } }, AT, 'CRM')[0]!.key).to.equal(`${AT}.default_arguments.limit`);
    expect(overrideProblems(search, { fixed: { account: 'a' }, default_arguments: { limit: 2 } }, AT, 'CRM')).to.deep.equal([]);
  });

  it('is pinned beside the upstream\'s hash: the owner\'s override changing is pinned and served, an upstream change is held', () => {
    const c = imported();
    const pin: ToolPin = { id: 'tdp_1', key: c.key, server: 'crm', tool: 'search', definition_hash: c.definition_hash!, definition: '{}', override_hash: null, reason: 'first_use', pinned_by: 'first_use', pinned_at: 't' };
    const renamed = applyOverride(c, { name: 'find' })!;
    const listed = { key: renamed.key, tool: 'search', definition_hash: c.definition_hash!, definition: '{}', override_hash: overrideHash({ name: 'find' }) };
    const r = reviewListing({ server: 'crm', onChange: 'hold', listed: [listed], pins: [pin], previous: [], now: 't2' });
    expect(r.served).to.deep.equal(['CRM_FIND']);
    expect(r.pins.map((p) => [p.key, p.reason, p.override_hash])).to.deep.equal([['CRM_FIND', 'override', listed.override_hash]]);
    expect(r.held).to.deep.equal([]);
    const changed = reviewListing({ server: 'crm', onChange: 'hold', listed: [{ ...listed, definition_hash: 'sha256:other' }], pins: [pin], previous: [], now: 't2' });
    expect(changed.held.map((h) => [h.key, h.reason])).to.deep.equal([['CRM_FIND', 'changed']]);
  });
});
