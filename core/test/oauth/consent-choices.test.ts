import { expect } from 'chai';
import { CapabilityRegistry, consentChoices, readableTitle, type CapabilityDefinition } from '../../src/index.js';

const def = (over: Partial<CapabilityDefinition> & Pick<CapabilityDefinition, 'key' | 'system'>): CapabilityDefinition => ({
  description: 'does a thing', type: 'fn', runner: 'r', inputs: { type: 'object' }, auth: 'none', risk: 'low', approval: false, example: {},
  annotations: { readOnlyHint: true, destructiveHint: false }, ...over,
});

describe('core: consent choices', () => {
  const registry = new CapabilityRegistry();
  registry.register(def({ key: 'EDGE_SET_ACTIVE_WORKER', system: 'EDGE', annotations: { readOnlyHint: false, destructiveHint: false } }));
  registry.register(def({ key: 'WEB_FETCH', system: 'WEB', annotations: { readOnlyHint: false, destructiveHint: true } }));
  registry.register(def({ key: 'PAY_SEARCH', system: 'PAY', risk: 'high', approval: true }));
  registry.register(def({ key: 'UP_ECHO', system: 'UP', title: 'Echo', annotations: undefined }));
  registry.register(def({ key: 'UP_LOOK', system: 'UP', annotations: { title: 'Look something up', readOnlyHint: true } }));
  const of = (key: string) => registry.get(key)?.capability;

  it('ticks only what has no caution, and marks destructive, high-risk and approval-gated tools', () => {
    const choices = consentChoices(['EDGE_SET_ACTIVE_WORKER', 'WEB_FETCH', 'PAY_SEARCH', 'UP_ECHO', 'UP_LOOK', 'GONE_KEY'], of);
    expect(choices.map((c) => [c.key, c.ticked, c.cautions])).to.deep.equal([
      ['EDGE_SET_ACTIVE_WORKER', true, []],
      ['WEB_FETCH', false, ['destructive']],
      ['PAY_SEARCH', false, ['high_risk', 'approval']],
      // No annotations: MCP presumes a tool that is not read-only may destroy.
      ['UP_ECHO', false, ['destructive']],
      ['UP_LOOK', true, []],
    ]);
  });

  it('titles tools with readable names, never tree paths', () => {
    expect(readableTitle(of('UP_ECHO')!)).to.equal('Echo');
    expect(readableTitle(of('UP_LOOK')!)).to.equal('Look something up');
    expect(readableTitle(of('EDGE_SET_ACTIVE_WORKER')!)).to.equal('Set active worker (Edge)');
    expect(readableTitle(of('WEB_FETCH')!)).to.equal('Fetch (Web)');
    expect(readableTitle({ key: 'ODD', system: 'OTHER' })).to.equal('Odd');
  });
});
