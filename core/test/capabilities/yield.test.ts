import { expect } from 'chai';
import { computeYield, estimateTokens, runCost } from '../../src/index.js';

describe('core: yield', () => {
  const model = { perRunMicros: 1000, perItemMicros: 50, itemsFrom: 'numbers' };
  it('estimates one token per 4 UTF-8 bytes, rounded up', () => {
    expect(estimateTokens('')).to.equal(0);
    expect(estimateTokens('abcd')).to.equal(1);
    expect(estimateTokens('abcde')).to.equal(2);
    expect(estimateTokens('é')).to.equal(1);
  });
  it('charges per run plus per item', () => {
    expect(runCost(model, { numbers: ['+1', '+2', '+3'] })).to.equal(1150);
    expect(runCost(undefined, {})).to.equal(0);
  });
  it('counts material for ok runs and waste for failed ones', () => {
    const ok = computeYield({ bodyText: '{"numbers":["+1"]}', resultText: '{"r":1}', ok: true, ran: true, cost: model, args: { numbers: ['+1'] } });
    expect(ok).to.deep.equal({ tokens: { in: 5, out: 2 }, cost: 1050, material: 7, waste: { bytes: 0, cost: 0 } });
    const refused = computeYield({ bodyText: '{}', resultText: '', ok: false, ran: false, cost: model, args: {} });
    expect(refused).to.deep.equal({ tokens: { in: 1, out: 0 }, cost: 0, material: 0, waste: { bytes: 2, cost: 0 } });
    const failedAfterRun = computeYield({ bodyText: '{}', resultText: '', ok: false, ran: true, cost: model, args: {} });
    expect(failedAfterRun.waste).to.deep.equal({ bytes: 2, cost: 1000 });
  });
});
