// Upstream account plans: a capability whose limits name a plan runs only when the account the
// deployment's config names is on that plan or a higher one; otherwise the run is refused
// plan_required before anything reaches the upstream.
import type { Capability } from './capability.js';
import { fail } from '../errors.js';

/** Known plans, lowest first. A plan outside this list only satisfies itself. */
export const PLANS = ['free', 'pro', 'enterprise'] as const;

export const planSatisfies = (account: string, needed: string): boolean => {
  const has = PLANS.indexOf(account as (typeof PLANS)[number]);
  const needs = PLANS.indexOf(needed as (typeof PLANS)[number]);
  return account === needed || (has >= 0 && needs >= 0 && has >= needs);
};

/** Refuses a run the account's plan does not allow. Without a configured plan, the upstream decides. */
export function checkPlan(capability: Pick<Capability, 'key' | 'limits' | 'accountPlan'>): void {
  const needed = capability.limits?.plan;
  const account = capability.accountPlan;
  if (needed === undefined || account === undefined || planSatisfies(account, needed)) return;
  fail('plan_required', `${capability.key} needs the upstream account on the ${needed} plan; the configured account is on ${account}`, { plan: account, needed });
}
