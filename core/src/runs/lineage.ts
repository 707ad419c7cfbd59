// Lineage rules: a repair names an existing failed invocation of the same key; repairs chain, and
// the chain stays linear and closes:
// - once a repair down the chain succeeded, nothing in it can be repaired again (lineage_closed,
//   naming that repair);
// - a failed repair may itself be repaired, but a failure that already has a repair cannot be
//   repaired a second time: the next attempt repairs the newest one (invalid_repair, reason
//   superseded, naming it), so every failure has at most one repair and the chain never forks.
// A repair still awaiting the owner's approval is neither: it closes nothing and supersedes nothing
// until it runs (the approved run carries its repairs link), so a denied or expired one blocks nobody.
import { SwitchyardError, fail } from '../errors.js';
import { isRepairable, type RepairLink, type StoredInvocation } from './invocation.js';

export function checkRepairTarget(key: string, repairsId: string, target: StoredInvocation | undefined, chain: readonly RepairLink[] = []): void {
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
  const closing = chain.find((link) => link.ok);
  if (closing) {
    fail('lineage_closed', `${repairsId} was repaired by ${closing.id}, which succeeded: its lineage is closed`, { repairs: repairsId, closed_by: closing.id });
  }
  const newest = newestAttempt(chain.filter((link) => isRepairable(link)));
  if (newest) {
    fail('invalid_repair', `${repairsId} already has a repair, ${newest.id} (status ${newest.status}); repair that one so the chain stays linear`, {
      repairs: repairsId,
      reason: 'superseded',
      repair_instead: newest.id,
    });
  }
}

/**
 * A repair of `repairsId` is already running (`inFlight`, when it is known: it may have just ended):
 * a second one would fork the chain, so it is refused (409, a conflict with a run in progress, like
 * idempotency_key_in_progress). Once that run ends, a retry finds the lineage closed (it succeeded)
 * or superseded by it (it failed). Decided where runs are reserved (the database, see RunReservations).
 */
export const repairInFlight = (repairsId: string, inFlight: string | null): SwitchyardError =>
  new SwitchyardError(
    'repair_in_progress',
    inFlight ? `${repairsId} is being repaired by ${inFlight} right now; once that run ends, repair it if it failed` : `${repairsId} is being repaired right now; read its repaired_by and repair the newest attempt if it fails`,
    { repairs: repairsId, in_progress: inFlight },
  );

/** The end of the chain: the latest failed attempt that nothing repairs yet (the last, in a linear chain). */
function newestAttempt(failedLinks: readonly RepairLink[]): RepairLink | undefined {
  const repaired = new Set(failedLinks.map((link) => link.repairs));
  return [...failedLinks].reverse().find((link) => !repaired.has(link.id));
}

export const INVOCATION_ID = /^inv_[A-Za-z0-9]{8,64}$/;
