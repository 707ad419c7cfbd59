import { expect } from 'chai';
import { SwitchyardError, checkPlan, planSatisfies } from '../../src/index.js';

describe('core: account plans', () => {
  it('ranks free < pro < enterprise; an unknown plan satisfies only itself', () => {
    expect(planSatisfies('enterprise', 'enterprise')).to.equal(true);
    expect(planSatisfies('enterprise', 'pro')).to.equal(true);
    expect(planSatisfies('pro', 'enterprise')).to.equal(false);
    expect(planSatisfies('free', 'pro')).to.equal(false);
    expect(planSatisfies('team', 'team')).to.equal(true);
    expect(planSatisfies('team', 'free')).to.equal(false);
    expect(planSatisfies('enterprise', 'team')).to.equal(false);
  });

  it('refuses plan_required naming both plans; no plan needed or none configured passes', () => {
    const lookup = { key: 'X_LOOKUP', limits: { plan: 'enterprise' } };
    try {
      checkPlan({ ...lookup, accountPlan: 'free' });
      expect.fail('should throw');
    } catch (err) {
      expect(SwitchyardError.is(err, 'plan_required'), String(err)).to.equal(true);
      expect((err as SwitchyardError).details).to.deep.equal({ plan: 'free', needed: 'enterprise' });
    }
    expect(() => checkPlan({ ...lookup, accountPlan: 'enterprise' })).to.not.throw();
    expect(() => checkPlan(lookup)).to.not.throw();
    expect(() => checkPlan({ key: 'X_OTHER', accountPlan: 'free' })).to.not.throw();
  });
});
