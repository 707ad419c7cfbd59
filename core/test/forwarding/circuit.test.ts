// The rules of a destination's circuit and pace, pure: what one attempt may do and what the circuit
// becomes; and the one-process store, whose changes are each one decision.
import { expect } from 'chai';
import { CLOSED_CIRCUIT, admit, afterOutcome, circuitView, endProbe, type Circuit } from '../../src/forwarding/circuit.js';
import { MemoryCircuitStore } from '../../src/forwarding/memory-circuit-store.js';

const rules = { openAfter: 2, cooldownMs: 30_000, probeMs: 5000 };
const t0 = 1_000_000;

describe('core: forwarding circuits', () => {
  it('a closed circuit without a pace lets attempts through and changes nothing', () => {
    const { result, next } = admit(CLOSED_CIRCUIT, t0, rules, null);
    expect(result).to.deep.equal({ send: true, probe: false });
    expect(next).to.equal(CLOSED_CIRCUIT);
  });

  it('opens at the threshold, holds attempts until the cool-down ends, then lets one probe through', () => {
    let c: Circuit = afterOutcome(CLOSED_CIRCUIT, false, t0, rules).next;
    expect(circuitView(c, rules.openAfter, t0).state).to.equal('closed');
    c = afterOutcome(c, false, t0 + 10, rules).next;
    expect(circuitView(c, rules.openAfter, t0 + 10)).to.deep.equal({ state: 'open', until: new Date(t0 + 10 + 30_000).toISOString(), failures: 2 });
    expect(admit(c, t0 + 20, rules, null).result).to.deep.equal({ send: false, until: t0 + 10 + 30_000 });
    const probe = admit(c, t0 + 30_010, rules, null);
    expect(probe.result).to.deep.equal({ send: true, probe: true });
    expect(circuitView(probe.next, rules.openAfter, t0 + 30_010).state).to.equal('probing');
    // A second attempt while the probe is out waits; once the probe's time is up (its process died), another may go.
    expect(admit(probe.next, t0 + 30_020, rules, null).result).to.deep.equal({ send: false, until: t0 + 31_020 });
    expect(admit(probe.next, t0 + 30_010 + 5000, rules, null).result).to.deep.equal({ send: true, probe: true });
    expect(endProbe(probe.next).next.probeUntil).to.equal(0);
  });

  it('a success closes it and keeps the pace; a failed probe opens it again', () => {
    const open = afterOutcome(afterOutcome({ ...CLOSED_CIRCUIT, nextSlot: 42 }, false, t0, rules).next, false, t0, rules).next;
    expect(afterOutcome(open, true, t0, rules).next).to.deep.equal({ ...CLOSED_CIRCUIT, nextSlot: 42 });
    const reopened = afterOutcome(admit(open, t0 + 30_000, rules, null).next, false, t0 + 30_100, rules).next;
    expect(circuitView(reopened, rules.openAfter, t0 + 30_100)).to.deep.equal({ state: 'open', until: new Date(t0 + 60_100).toISOString(), failures: 3 });
    expect(afterOutcome(CLOSED_CIRCUIT, true, t0, rules).next).to.equal(CLOSED_CIRCUIT);
  });

  it('rate_per_s gives each attempt its own slot; one that must wait is told when', () => {
    const first = admit(CLOSED_CIRCUIT, t0, rules, 4);
    expect(first.result).to.deep.equal({ send: true, probe: false });
    expect(first.next.nextSlot).to.equal(t0 + 250);
    expect(admit(first.next, t0 + 100, rules, 4)).to.deep.include({ result: { send: false, until: t0 + 250 } });
    expect(admit(first.next, t0 + 250, rules, 4).next.nextSlot).to.equal(t0 + 500);
    // A probe waiting for its slot does not hold the circuit.
    const open = { failures: 2, openUntil: t0, probeUntil: 0, nextSlot: t0 + 900 };
    expect(admit(open, t0 + 100, rules, 4)).to.deep.equal({ result: { send: false, until: t0 + 900 }, next: open });
  });

  it('the one-process store: many attempts at one instant, one slot each', async () => {
    const store = new MemoryCircuitStore();
    const results = await Promise.all(Array.from({ length: 5 }, () => store.change('dst_a', (c) => admit(c, t0, rules, 1))));
    expect(results.filter((r) => r.send)).to.have.length(1);
    expect((await store.read(['dst_a', 'dst_b'])).get('dst_b')).to.equal(CLOSED_CIRCUIT);
  });
});
