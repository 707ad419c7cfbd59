// Which upstream errors may be retried on a fresh session inside the same call: only those that
// say the request was never read, so nothing can run twice.
import { expect } from 'chai';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { isStaleSession } from '../../src/upstream/tool-results.js';

const withCode = (code: string, extra: Record<string, unknown> = {}) => Object.assign(new Error(code), { code, ...extra });

describe('stale upstream sessions', () => {
  it('retries a session the server refused unread, a refused connection and a reset reused socket', () => {
    expect(isStaleSession(new StreamableHTTPError(404, 'Session not found'))).to.equal(true);
    expect(isStaleSession(new StreamableHTTPError(400, 'Bad Request: No valid session ID provided'))).to.equal(true);
    expect(isStaleSession(withCode('ECONNREFUSED'))).to.equal(true);
    expect(isStaleSession(new TypeError('fetch failed', { cause: withCode('ECONNREFUSED') }))).to.equal(true);
    expect(isStaleSession(withCode('ECONNRESET', { unsent: true }))).to.equal(true);
    expect(isStaleSession(new Error('Not connected'))).to.equal(true);
  });

  it('does not retry what the server may have read: a reset after sending, a protocol error, another 400 or 500', () => {
    expect(isStaleSession(withCode('ECONNRESET'))).to.equal(false);
    expect(isStaleSession(new McpError(ErrorCode.InvalidParams, 'bad params'))).to.equal(false);
    expect(isStaleSession(new McpError(ErrorCode.ConnectionClosed, 'closed'))).to.equal(false);
    expect(isStaleSession(new StreamableHTTPError(400, 'Bad Request: invalid JSON'))).to.equal(false);
    expect(isStaleSession(new StreamableHTTPError(500, 'boom'))).to.equal(false);
    expect(isStaleSession(null)).to.equal(false);
  });
});
