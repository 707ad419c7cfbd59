// Lineage rules: a repair names an existing failed invocation of the same key; repairs may chain.
import { fail } from './errors.js';
import { isRepairable, type StoredInvocation } from './invocation.js';

export function checkRepairTarget(key: string, repairsId: string, target: StoredInvocation | undefined): void {
  if (!target) fail('invalid_repair', `repairs names ${repairsId}, which is not in the ledger`, { repairs: repairsId, reason: 'not_found' });
  if (target!.key !== key) {
    fail('invalid_repair', `repairs names an invocation of ${target!.key}, not ${key}`, { repairs: repairsId, reason: 'different_key', target_key: target!.key });
  }
  if (!isRepairable(target!)) {
    fail('invalid_repair', `${repairsId} did not fail (status ${target!.status}); only failed invocations can be repaired`, {
      repairs: repairsId,
      reason: 'not_failed',
      target_status: target!.status,
    });
  }
}

export const INVOCATION_ID = /^inv_[A-Za-z0-9]{8,64}$/;
