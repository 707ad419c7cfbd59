import { expect } from 'chai';
import { readableTitleOf } from '../../src/index.js';

describe('core: tool titles', () => {
  const cases: Array<[string, string, string]> = [
    ['DEMO', 'DEMO_ECHO', 'Demo: echo'],
    ['EDGE', 'EDGE_BUILDS_WORKERS_BUILDS_SET_ACTIVE_WORKER', 'Edge: builds workers builds set active worker'],
    ['WEB_FETCH', 'WEB_FETCH', 'Web fetch'],
    ['MESSAGING', 'MESSAGING_UPDATE_GROUP', 'Messaging: update group'],
    ['OPS', 'OTHER_SYSTEM_KEY', 'Ops: other system key'],
  ];
  for (const [system, key, title] of cases) {
    it(`${key} of ${system} → ${JSON.stringify(title)}: words, never the tree path`, () => {
      expect(readableTitleOf({ system, key })).to.equal(title).and.not.contain('>');
    });
  }
});
