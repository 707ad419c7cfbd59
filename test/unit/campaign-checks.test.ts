// The fault campaign's cross-checks on records made by hand: each kind of mismatch is found, by its
// entries, and nothing is found where the ledger accounts for everything (interrupted records count,
// a killed request's delivery is neither acknowledged nor refused, calls and hits count one by one).
import { expect } from 'chai';
import { MISMATCH_KINDS, campaignMismatches, type CampaignRecords, type LedgerInvocation } from '../support/campaign-checks.js';

const at = '2026-12-02T07:00:00.400Z';
const second = Math.floor(Date.parse(at) / 1000);
const run = (id: string, label: string, status = 'ok'): LedgerInvocation => ({ id, key: 'SIDE_MARK', status, args: { label }, created_at: at });
const attempt = (id: string, delivery: string, status = 'ok', createdAt = at): LedgerInvocation => ({ id, key: 'WEBHOOK_FORWARD', status, args: { delivery, attempt: 1 }, created_at: createdAt });

/** A campaign whose every record matches: one delivery forwarded twice (a retry), one run, one interrupted run. */
const clean = (): CampaignRecords => ({
  deliveries: [
    { deliveryId: 'c-0', status: 200, entry: 'dlv_a' },
    { deliveryId: 'c-1', status: 503, entry: null },
    // Killed mid-request and yet stored: neither acknowledged nor refused, and forwarded like any.
    { deliveryId: 'c-2', status: null, entry: null },
  ],
  runs: [
    { label: 'r-0', status: 200, invocation: 'inv_r0' },
    { label: 'r-1', status: null, invocation: null },
  ],
  upstreamCalls: ['r-0', 'r-1'],
  hits: [
    { delivery: 'dlv_a', timestamp: second },
    { delivery: 'dlv_a', timestamp: second },
    { delivery: 'dlv_c', timestamp: second + 1 },
  ],
  ledgerDeliveries: [
    { id: 'dlv_a', delivery_id: 'c-0', outcome: 'accepted', forwarding: [{ state: 'delivered', invocations: ['inv_f0', 'inv_f1'] }] },
    { id: 'dlv_c', delivery_id: 'c-2', outcome: 'accepted', forwarding: [{ state: 'delivered', invocations: ['inv_f2'] }] },
  ],
  runRecords: [run('inv_r0', 'r-0'), run('inv_r1', 'r-1', 'interrupted')],
  attemptRecords: [attempt('inv_f0', 'dlv_a', 'failed'), attempt('inv_f1', 'dlv_a', 'interrupted'), attempt('inv_f2', 'dlv_c', 'ok', '2026-12-02T07:00:01.999Z')],
});

const counts = (r: CampaignRecords, checkpoints: string[] = []) => Object.fromEntries(Object.entries(campaignMismatches(r, checkpoints)).map(([k, v]) => [k, v.length]));
const zeros = Object.fromEntries(MISMATCH_KINDS.map((k) => [k, 0]));

describe('fault campaign checks', () => {
  it('find nothing when the ledger accounts for every answer, call and hit', () => {
    expect(counts(clean())).to.deep.equal(zeros);
  });

  it('find each kind of mismatch, naming its entries', () => {
    const r = clean();
    r.deliveries.push({ deliveryId: 'c-3', status: 202, entry: 'dlv_gone' }, { deliveryId: 'c-4', status: 503, entry: null }, { deliveryId: 'c-5', status: 500, entry: null });
    r.ledgerDeliveries.push({ id: 'dlv_d', delivery_id: 'c-4', outcome: 'accepted', forwarding: [] });
    r.runs.push({ label: 'r-2', status: 200, invocation: 'inv_gone' });
    // Called twice, recorded once; a hit a second after its only attempt.
    r.upstreamCalls.push('r-0');
    r.hits.push({ delivery: 'dlv_c', timestamp: second + 2 });
    const found = campaignMismatches(r, ['sizes 3 → 5: bad proof']);
    expect(found).to.deep.equal({
      'acknowledged delivery lost': ['c-3 (dlv_gone)'],
      'acknowledged run lost': ['r-2 (inv_gone)'],
      'upstream call without a record': ['r-0'],
      'receiver hit without a recorded attempt': [`dlv_c@${second + 2}`],
      '503 delivery stored': ['c-4'],
      'accepted delivery never scheduled for forwarding': ['c-4 (dlv_d, answered 503)'],
      'answer neither 2xx nor 503': ['delivery c-5: 500'],
      'inconsistent checkpoints': ['sizes 3 → 5: bad proof'],
    });
  });

  it('match a 2xx whose body was cut by the id its sender chose, and a hit by its delivery and second', () => {
    const r = clean();
    r.deliveries[0] = { deliveryId: 'c-0', status: 200, entry: null };
    r.runs[0] = { label: 'r-0', status: 200, invocation: null };
    expect(counts(r)).to.deep.equal(zeros);
    // Stored under another sender's id: the entry the answer named does not hold this delivery.
    r.ledgerDeliveries[0] = { ...r.ledgerDeliveries[0]!, delivery_id: 'c-9' };
    expect(campaignMismatches(r, [])['acknowledged delivery lost']).to.deep.equal(['c-0 (null)']);
    // The same delivery's attempt a second earlier does not account for a hit.
    const s = clean();
    s.attemptRecords[1] = attempt('inv_f1', 'dlv_a', 'interrupted', '2026-12-02T06:59:59.999Z');
    expect(campaignMismatches(s, [])['receiver hit without a recorded attempt']).to.deep.equal([`dlv_a@${second}`]);
  });
});
