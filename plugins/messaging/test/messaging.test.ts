// The MESSAGING plugin against its simulator over real streamable HTTP: every row of the spec's
// input-schema table, the plan refusal, and unknown groups as tool errors.
import { expect } from 'chai';
import { OWNER, pluginContract, startPluginHarness } from '@switchyard/plugin-kit/testing';
import { messagingPlugin } from '../src/index.js';
import { lookupPhoneNumber, Groups } from '../src/simulator/index.js';

const UPDATE = 'MESSAGING_UPDATE_GROUP';
const LOOKUP = 'MESSAGING_BATCH_LOOKUP_PHONE_NUMBERS';
const hundredAndOne = Array.from({ length: 101 }, (_, i) => `+1415555${String(1000 + i).padStart(4, '0')}`);

/** The plugin on its simulator, the simulator's account on `plan` (the configured account stays enterprise, so the simulator is what refuses). */
const harnessFor = (plan: 'enterprise' | 'free') => startPluginHarness(messagingPlugin, { upstream: { url: 'simulator' }, simulator: { plan } });

pluginContract(messagingPlugin, {
  start: () => harnessFor('enterprise'),
  valid: {
    [UPDATE]: [{ group_id: 'grp_4f7c2a9d1e', name: 'Support rota (EU)' }],
    [LOOKUP]: [{ numbers: ['+14155552671'] }, { numbers: hundredAndOne.slice(0, 100) }],
  },
  invalid: {
    [UPDATE]: [
      { name: 'x' },
      { group_id: 'grp_4f7c2a9d1e' },
      { group_id: 'group_1', name: 'x' },
      { group_id: 'grp_4f7c2a9d1e', name: '' },
      { group_id: 'grp_4f7c2a9d1e', name: 'x', extra: true },
    ],
    [LOOKUP]: [{}, { numbers: [] }, { numbers: ['4155552671'] }, { numbers: ['+0123'] }, { numbers: hundredAndOne }, { numbers: ['+14155552671'], extra: 1 }, { numbers: '+14155552671' }],
  },
});

describe('plugin messaging: simulator behaviour through dispatch', function () {
  const dispatcher = async (plan: 'enterprise' | 'free') => {
    const h = await harnessFor(plan);
    return { h, dispatch: h.dispatch };
  };

  it('serves under a /v4/ path', async function () {
    const h = await harnessFor('enterprise');
    expect(h.upstreamUrl).to.match(/\/v4\//);
    await h.close();
  });

  it('renames a group and answers the previous name', async function () {
    const { h, dispatch } = await dispatcher('enterprise');
    try {
      const first = await dispatch.dispatch({ key: UPDATE, body: { group_id: 'grp_6a2d8c5f90', name: 'Board of directors' } }, OWNER);
      expect(first.invocation.result).to.deep.include({ previous_name: 'Board' });
      const second = await dispatch.dispatch({ key: UPDATE, body: { group_id: 'grp_6a2d8c5f90', name: 'Board' } }, OWNER);
      expect(second.invocation.result).to.deep.include({ previous_name: 'Board of directors' });
    } finally {
      await h.close();
    }
  });

  it('fails an unknown group as a tool error that ran, and a repair closes it', async function () {
    const { h, dispatch } = await dispatcher('enterprise');
    try {
      const { invocation } = await dispatch.dispatch({ key: UPDATE, body: { group_id: 'grp_doesnotexist', name: 'x' } }, OWNER);
      expect(invocation).to.include({ ok: false, ran: true, status: 'failed' });
      expect(invocation.error?.code).to.equal('tool_error');
      expect(invocation.error?.message).to.contain('grp_doesnotexist not found');
      const fixed = await dispatch.dispatch({ key: UPDATE, body: { group_id: 'grp_8b3e6d0a52', name: 'x' }, repairs: invocation.id }, OWNER);
      expect(fixed.invocation).to.include({ ok: true, repairs: invocation.id });
    } finally {
      await h.close();
    }
  });

  it('looks numbers up with validity, country and type', async function () {
    const { h, dispatch } = await dispatcher('enterprise');
    try {
      const { invocation } = await dispatch.dispatch({ key: LOOKUP, body: { numbers: ['+14155552671', '+442071838750', '+15550000000'] } }, OWNER);
      const result = invocation.result as { results: Array<{ number: string; valid: boolean; country: string | null; type: string | null }>; count: number; valid: number };
      expect(result.count).to.equal(3);
      expect(result.valid).to.equal(2);
      expect(result.results.map((r) => r.country)).to.deep.equal(['US', 'GB', null]);
      expect(result.results[1]!.type).to.equal('fixed_line');
      expect(result.results[2]!.valid).to.equal(false);
      expect(invocation.yield.cost).to.be.greaterThan(0);
    } finally {
      await h.close();
    }
  });

  it('refuses a lookup without an enterprise plan as plan_required', async function () {
    const { h, dispatch } = await dispatcher('free');
    try {
      const { invocation } = await dispatch.dispatch({ key: LOOKUP, body: { numbers: ['+14155552671'] } }, OWNER);
      expect(invocation.ok).to.equal(false);
      expect(invocation.status).to.equal('refused');
      expect(invocation.error?.code).to.equal('plan_required');
      expect(invocation.error?.message).to.contain('enterprise');
    } finally {
      await h.close();
    }
  });

  it('classifies numbers without the network (pure lookup)', function () {
    expect(lookupPhoneNumber('+447400123456')).to.include({ valid: true, country: 'GB', type: 'mobile' });
    expect(lookupPhoneNumber('+999')).to.include({ valid: false });
    expect(() => new Groups().rename('grp_nope', 'x')).to.throw(/not found/);
  });
});
