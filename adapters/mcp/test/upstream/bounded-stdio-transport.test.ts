// BoundedStdioTransport against a real child process that writes JSON-RPC lines of the shapes
// servers write: an answer past the bound is dropped and answered in its place for the request its
// id names (written first or last), for every pending request when its id is in the middle, and
// not at all when it is the server's own notification; the lines after it are read as usual.
import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { ANSWER_TOO_LARGE_CODE, BoundedStdioTransport } from '../../src/upstream/bounded-stdio-transport.js';

// Answers each request line `{id, params: {shape}}` with a line of that shape; `big` text is 5000 bytes.
const SERVER = `
const big = 'x'.repeat(5000);
require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {
  const { id, params } = JSON.parse(line);
  const out = {
    small: { jsonrpc: '2.0', id, result: { text: 'small' } },
    head: { jsonrpc: '2.0', id, result: { text: big } },
    tail: { result: { text: big }, jsonrpc: '2.0', id },
    middle: { result: { a: big }, id, b: big, jsonrpc: '2.0' },
    notice: { method: 'notifications/message', params: { data: big }, jsonrpc: '2.0' },
    hold: null,
  }[params.shape];
  if (out) process.stdout.write(JSON.stringify(out) + '\\n');
});
`;

describe('BoundedStdioTransport', function () {
  this.timeout(20_000);
  let transport: BoundedStdioTransport;
  let received: JSONRPCMessage[];

  beforeEach(async () => {
    received = [];
    transport = new BoundedStdioTransport({ command: process.execPath, args: ['-e', SERVER], env: { PATH: process.env['PATH'] ?? '' }, stderr: 'ignore', maxMessageBytes: 1000, parse: (line) => JSON.parse(line) });
    transport.onmessage = (message) => void received.push(message);
    await transport.start();
  });
  afterEach(async () => transport.close());

  const ask = (id: number, shape: string) => transport.send({ jsonrpc: '2.0', id, method: 'test/shape', params: { shape } });
  const until = async (count: number) => {
    for (let i = 0; i < 400 && received.length < count; i++) await new Promise((r) => setTimeout(r, 10));
    expect(received).to.have.length(count);
  };

  for (const shape of ['head', 'tail']) {
    it(`answers only the request whose id an oversized answer writes ${shape === 'head' ? 'first' : 'last'}, and reads on`, async () => {
      await ask(1, 'hold');
      await ask(2, shape);
      await ask(3, 'small');
      await until(2);
      const answer = received[0] as { id: number; error: { code: number; message: string; data: unknown } };
      expect(answer.id).to.equal(2);
      expect(answer.error).to.deep.include({ code: ANSWER_TOO_LARGE_CODE, data: { max_bytes: 1000 } });
      expect(answer.error.message).to.match(/passed 1000 bytes/);
      expect(received[1]).to.deep.equal({ jsonrpc: '2.0', id: 3, result: { text: 'small' } });
    });
  }

  it('answers every pending request when the id of an oversized answer is in its middle', async () => {
    await ask(1, 'hold');
    await ask(2, 'middle');
    await until(2);
    expect(received.map((m) => (m as { id: number }).id).sort()).to.deep.equal([1, 2]);
    for (const m of received) expect((m as { error: { code: number } }).error.code).to.equal(ANSWER_TOO_LARGE_CODE);
    await ask(3, 'small');
    await until(3);
    expect(received[2]).to.deep.equal({ jsonrpc: '2.0', id: 3, result: { text: 'small' } });
  });

  it("drops the server's own oversized notification and answers nothing for it", async () => {
    await ask(1, 'notice');
    await ask(2, 'small');
    await until(1);
    expect(received[0]).to.deep.equal({ jsonrpc: '2.0', id: 2, result: { text: 'small' } });
  });

  // A server that writes a call's progress and its answer in one write (as a busy pipe delivers
  // them in one read): the SDK settles the answer at once but runs a notification's handler a
  // microtask later, so handed over in one go the progress would reach a call already forgotten.
  const TOGETHER = `
require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  if (m.method === 'initialize') process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'together', version: '1' } } }) + '\\n');
  if (m.method === 'tools/call') {
    const token = m.params._meta.progressToken;
    const progress = [1, 2, 3].map((i) => JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: i, total: 3 } }));
    process.stdout.write([...progress, JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { content: [{ type: 'text', text: 'done' }] } })].join('\\n') + '\\n');
  }
});
`;

  it('hands a notification read together with its call\'s answer to the SDK before the answer: every progress reaches the call', async () => {
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(new BoundedStdioTransport({ command: process.execPath, args: ['-e', TOGETHER], env: { PATH: process.env['PATH'] ?? '' }, stderr: 'ignore', maxMessageBytes: 100_000, parse: (line) => JSON.parse(line) }));
    try {
      for (let round = 0; round < 5; round++) {
        const seen: number[] = [];
        const answer = await client.callTool({ name: 'steps', arguments: {} }, undefined, { onprogress: (p) => seen.push(p.progress) });
        expect(answer.content).to.deep.equal([{ type: 'text', text: 'done' }]);
        expect(seen).to.deep.equal([1, 2, 3]);
      }
    } finally {
      await client.close();
    }
  });
});
