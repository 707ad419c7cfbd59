// The JSON-RPC error a call through the MCP SDK client must end in; a call that succeeds fails the test.
import { expect } from 'chai';
import { McpError } from '@modelcontextprotocol/sdk/types.js';

export async function rpcError(call: Promise<unknown>): Promise<McpError> {
  try {
    await call;
  } catch (err) {
    expect(err).to.be.instanceOf(McpError);
    return err as McpError;
  }
  throw new Error('expected a JSON-RPC error');
}
