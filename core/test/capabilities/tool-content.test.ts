// Tool content kept whole: binary bytes, blobs stored once and put back, and what dispatch keeps of a tool run.
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { CapabilityRegistry, DispatchService, OWNER, RunnerDirectory, SwitchyardError, ToolOutput, binaryBytes, externalizeBlobs, inlineBlobs, type Blob, type BlobStore, type CapabilityRunner, type ContentBlock } from '../../src/index.js';
import { MemoryInvocationStore } from '@switchyard/plugin-kit/testing';
import { echoCapability } from '../fixtures.js';

class MemoryBlobs implements BlobStore {
  readonly blobs = new Map<string, Blob>();
  async put(blob: Blob) {
    if (!this.blobs.has(blob.sha256)) this.blobs.set(blob.sha256, blob);
  }
  async get(sha256: string) {
    return this.blobs.get(sha256);
  }
}

const bytes = (n: number) => Buffer.alloc(n, 7);
const CONTENT: ContentBlock[] = [
  { type: 'text', text: '{"looks": "like JSON"}' },
  { type: 'image', data: bytes(40).toString('base64'), mimeType: 'image/png' },
  { type: 'audio', data: bytes(10).toString('base64'), mimeType: 'audio/wav', annotations: { priority: 1 } },
  { type: 'resource', resource: { uri: 'memo://b', mimeType: 'application/octet-stream', blob: bytes(50).toString('base64') } },
  { type: 'resource_link', uri: 'file:///x', name: 'x' },
];

describe('core: tool content', () => {
  it('counts the decoded bytes of every binary part, inline or stored', async () => {
    expect(binaryBytes(CONTENT)).to.equal(100);
    expect(binaryBytes(await externalizeBlobs(CONTENT, new MemoryBlobs(), 20, (h) => `/b/${h}`))).to.equal(100);
  });

  it('stores binary parts over the threshold once, by hash, and puts them back exactly', async () => {
    const blobs = new MemoryBlobs();
    const stored = await externalizeBlobs(CONTENT, blobs, 20, (h) => `/b/${h}`);
    const sha = createHash('sha256').update(bytes(40)).digest('hex');
    expect(stored[1]).to.deep.equal({ type: 'image', mimeType: 'image/png', _blob: { sha256: sha, size: 40, mimeType: 'image/png', url: `/b/${sha}` } });
    expect(stored[2]).to.deep.equal(CONTENT[2]); // under the threshold: inline
    expect((stored[3]!['resource'] as Record<string, unknown>)['blob']).to.equal(undefined);
    expect(blobs.blobs.size).to.equal(2);
    await externalizeBlobs(CONTENT, blobs, 20, (h) => `/b/${h}`);
    expect(blobs.blobs.size).to.equal(2);
    expect(await inlineBlobs(stored, blobs)).to.deep.equal(CONTENT);
  });
});

describe('core: dispatch of tool output', () => {
  const setup = (runner: CapabilityRunner, blobs: BlobStore | null = null) => {
    const registry = new CapabilityRegistry();
    const runners = new RunnerDirectory();
    registry.register(echoCapability);
    runners.assign(echoCapability.key, runner);
    return new DispatchService(registry, runners, new MemoryInvocationStore(), { now: () => new Date() }, { timeoutMs: 1000, blobThresholdBytes: 20 }, undefined, blobs);
  };

  it('keeps content, structured content and log lines with the run; material counts binary bytes', async () => {
    const runner: CapabilityRunner = {
      run: async (_c, _a, ctx) => {
        ctx.log?.({ level: 'info', data: 'working' });
        return new ToolOutput({ n: 1 }, CONTENT, { n: 1 });
      },
    };
    const { invocation } = await setup(runner, new MemoryBlobs()).dispatch({ key: 'TEST_ECHO', body: { text: 'x' } }, OWNER);
    expect(invocation).to.deep.include({ ok: true, result: { n: 1 }, structured_content: { n: 1 }, logs: [{ level: 'info', data: 'working' }] });
    expect(invocation.content![1]).to.have.property('_blob');
    expect(invocation.content![1]!['_blob']).to.have.property('url', `/api/invocations/${invocation.id}/blobs/${createHash('sha256').update(bytes(40)).digest('hex')}`);
    expect(invocation.yield.material).to.equal(Buffer.byteLength('{"n":1}') + 100);
  });

  it('a run whose caller withdrew it is cancelled: ok false, ran true, whatever the runner answered', async () => {
    const controller = new AbortController();
    const runner: CapabilityRunner = {
      run: async () => {
        controller.abort();
        return 'finished anyway';
      },
    };
    const { invocation } = await setup(runner).dispatch({ key: 'TEST_ECHO', body: { text: 'x' }, signal: controller.signal }, OWNER);
    expect(invocation).to.deep.include({ status: 'cancelled', ok: false, ran: true, result: null });
    expect(invocation.error!.code).to.equal('cancelled');
  });

  it('a run the upstream could not finish for want of the caller (elicitation) is failed, not cancelled', async () => {
    const { invocation } = await setup({ run: async () => { throw new SwitchyardError('elicitation_unsupported', 'cannot ask'); } }).dispatch({ key: 'TEST_ECHO', body: { text: 'x' } }, OWNER);
    expect(invocation).to.deep.include({ status: 'failed', ok: false, ran: true });
    expect(invocation.error!.code).to.equal('elicitation_unsupported');
  });
});
