import { expect } from 'chai';
import { counted } from '../src/index.js';

describe('core: counted', () => {
  it('says "1 capability", "2 capabilities", "0 articles"', () => {
    expect(counted(1, 'capability', 'capabilities')).to.equal('1 capability');
    expect(counted(2, 'capability', 'capabilities')).to.equal('2 capabilities');
    expect(counted(0, 'article')).to.equal('0 articles');
    expect(counted(1, 'byte')).to.equal('1 byte');
  });
});
