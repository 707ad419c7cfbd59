// tools/list pages: every tool once in name order, cursors that hold while tools change, and
// -32602 for a cursor we did not make.
import { expect } from 'chai';
import { ErrorCode, McpError, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { pageOfTools } from '../../src/server/tool-pages.js';

const tool = (name: string): Tool => ({ name, inputSchema: { type: 'object' } });

describe('tools/list pages', () => {
  it('walks every tool once, in name order, pageSize at a time', () => {
    const tools = ['d', 'a', 'e', 'c', 'b'].map(tool);
    const names: string[] = [];
    let cursor: string | undefined;
    const sizes: number[] = [];
    do {
      const page = pageOfTools(tools, cursor, 2);
      sizes.push(page.tools.length);
      names.push(...page.tools.map((t) => t.name));
      cursor = page.nextCursor;
    } while (cursor);
    expect(names).to.deep.equal(['a', 'b', 'c', 'd', 'e']);
    expect(sizes).to.deep.equal([2, 2, 1]);
    expect(pageOfTools(tools, undefined, 5)).to.not.have.property('nextCursor');
  });

  it('keeps its place when a tool before the cursor goes away', () => {
    const first = pageOfTools(['a', 'b', 'c', 'd'].map(tool), undefined, 2);
    const next = pageOfTools(['b', 'c', 'd'].map(tool), first.nextCursor, 2);
    expect(next.tools.map((t) => t.name)).to.deep.equal(['c', 'd']);
  });

  it('refuses a cursor it did not make with InvalidParams', () => {
    for (const cursor of ['', 'not a cursor', Buffer.from('before:a').toString('base64url'), Buffer.from('after:a').toString('base64url') + '=']) {
      let caught: unknown;
      try {
        pageOfTools([tool('a')], cursor, 2);
      } catch (err) {
        caught = err;
      }
      expect(caught, cursor).to.be.instanceOf(McpError);
      expect((caught as McpError).code).to.equal(ErrorCode.InvalidParams);
    }
  });
});
