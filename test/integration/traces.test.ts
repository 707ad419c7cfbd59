// Traces (OpenTelemetry, OTLP over HTTP, configured by OTEL_* only): a service process exports to a
// local OTLP receiver. One dispatch is one trace continued from the caller's traceparent: the
// request's span, the upstream MCP call (whose traceparent reaches the upstream in its headers and
// in the request's _meta) and the ledger append; a webhook delivery's trace holds its intake and
// the forwarding attempt, whose traceparent reaches the destination; log lines name the trace; an
// invocation keeps its trace id. With an api process and a worker on one PostgreSQL database, the
// forwarding job keeps the intake's traceparent, so the worker's attempt is in the delivery's trace.
import { expect } from 'chai';
import express from 'express';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { TEST_API_KEY, engines, freshDatabase } from '../support/app.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../support/otlp-receiver.js';
import { startServiceProcess, startWorkerProcess, type Child } from '../support/processes.js';
import { eventually, startReceiver, type Receiver } from '../support/receiver.js';

const OPEN = { auth: 'none', risk: 'low', approval: false };
const owner = { 'content-type': 'application/json', 'x-sheets-key': TEST_API_KEY };
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/;

/** A streamable-HTTP MCP server (stateless) whose one tool answers; it keeps each tools/call's traceparent header and _meta. */
async function startTracedUpstream(): Promise<{ url: string; calls: Array<{ header: string | undefined; meta: Record<string, unknown> | undefined }>; close(): Promise<void> }> {
  const calls: Array<{ header: string | undefined; meta: Record<string, unknown> | undefined }> = [];
  const app = express();
  app.post('/mcp', express.json(), async (req, res) => {
    const body = req.body as { method?: string; params?: { _meta?: Record<string, unknown> } };
    if (body.method === 'tools/call') calls.push({ header: req.headers['traceparent'] as string | undefined, meta: body.params?._meta });
    const server = new McpServer({ name: 'traced-fixture', version: '1.0.0' });
    server.registerTool('echo', { description: 'Answers ok', inputSchema: {} }, async () => ({ content: [{ type: 'text', text: 'ok' }] }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  const http: HttpServer = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    calls,
    close: () => new Promise<void>((resolve) => http.close(() => resolve())),
  };
}

const randomHex = (bytes: number): string => Buffer.from(Array.from({ length: bytes }, () => Math.floor(Math.random() * 256))).toString('hex');

describe('traces: OpenTelemetry to a local OTLP receiver (one service process)', function () {
  this.timeout(90_000);
  let otlp: OtlpReceiver;
  let upstream: Awaited<ReturnType<typeof startTracedUpstream>>;
  let rx: Receiver;
  let dir: string;
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let service: { child: Child; url: string };
  const lines: Array<Record<string, unknown>> = [];

  before(async () => {
    otlp = await startOtlpReceiver();
    upstream = await startTracedUpstream();
    rx = await startReceiver();
    db = await freshDatabase('sqlite');
    dir = mkdtempSync(join(tmpdir(), 'switchyard-traces-'));
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({ upstreams: { servers: { traced: { system: 'TRACED', transport: 'streamable-http', url: upstream.url, defaults: OPEN } } }, webhooks: { forwarding: { allow: [`127.0.0.1:${rx.port}`] } } }),
    );
    service = await startServiceProcess({
      SWITCHYARD_API_KEY: TEST_API_KEY,
      DATABASE_URL: db.url,
      SWITCHYARD_CONFIG: join(dir, 'config.json'),
      LOG_LEVEL: 'debug',
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_SERVICE_NAME: 'switchyard-under-test',
      OTEL_BSP_SCHEDULE_DELAY: '50',
    });
    createInterface({ input: service.child.process.stdout! }).on('line', (line) => {
      try {
        lines.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        // not a log line
      }
    });
  });

  after(async () => {
    await service?.child.stop();
    await upstream?.close();
    await rx?.close();
    await otlp?.close();
    await db?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const spansOf = (traceId: string, names: RegExp[]): Promise<ReceivedSpan[]> =>
    eventually(async () => {
      const spans = otlp.spans.filter((s) => s.traceId === traceId);
      return names.every((n) => spans.some((s) => n.test(s.name))) ? spans : undefined;
    }, `spans ${names.join(', ')} of trace ${traceId}`);

  it('makes one dispatch one trace, from the caller\'s traceparent through the upstream MCP call and the ledger append', async () => {
    const traceId = randomHex(16);
    const callerSpan = randomHex(8);
    const res = await fetch(`${service.url}/api/dispatch`, { method: 'POST', headers: { ...owner, traceparent: `00-${traceId}-${callerSpan}-01` }, body: JSON.stringify({ key: 'TRACED_ECHO', body: {} }) });
    expect(res.status).to.equal(200);
    const answer = (await res.json()) as { ok: boolean; invocation: { id: string } };
    expect(answer.ok).to.equal(true);

    const spans = await spansOf(traceId, [/^POST \/api\/dispatch$/, /^mcp tools\/call /, /^ledger append$/]);
    const request = spans.find((s) => s.name === 'POST /api/dispatch')!;
    expect(request).to.deep.include({ parentSpanId: callerSpan, kind: 2, service: 'switchyard-under-test' });
    expect(request.attributes).to.deep.include({ 'http.route': '/api/dispatch', 'http.response.status_code': 200 });
    const call = spans.find((s) => s.name.startsWith('mcp tools/call'))!;
    expect(call).to.deep.include({ parentSpanId: request.spanId, kind: 3 });
    expect(call.attributes).to.deep.include({ 'gen_ai.tool.name': 'echo' });
    const append = spans.find((s) => s.name === 'ledger append')!;
    expect(append.parentSpanId).to.equal(request.spanId);
    expect(append.attributes).to.deep.include({ 'switchyard.invocation': answer.invocation.id, 'switchyard.key': 'TRACED_ECHO' });
    // The invocation keeps its trace.
    const kept = (await (await fetch(`${service.url}/api/invocations/${answer.invocation.id}`, { headers: owner })).json()) as { invocation: { trace_id: string } };
    expect(kept.invocation.trace_id).to.equal(traceId);

    // The upstream got the call's span as its parent, in the header and in _meta alike.
    const got = upstream.calls[upstream.calls.length - 1]!;
    expect(got.header).to.match(TRACEPARENT);
    expect(got.header!.match(TRACEPARENT)!.slice(1, 3)).to.deep.equal([traceId, call.spanId]);
    expect(got.meta?.['traceparent']).to.equal(got.header);

    // The request's log lines name the trace.
    const logged = await eventually(async () => lines.find((l) => l['message'] === 'request' && l['route'] === '/api/dispatch' && l['trace_id'] === traceId), 'the access log line with its trace id');
    expect(logged['span_id']).to.equal(request.spanId);
  });

  it('puts a delivery\'s intake and its forwarding attempt in one trace, and sends the traceparent to the destination', async () => {
    const hook = (await (await fetch(`${service.url}/api/objects/webhook`, { method: 'POST', headers: owner, body: JSON.stringify({ name: 'traced' }) })).json()) as { id: string };
    expect((await fetch(`${service.url}/api/objects/webhook/${hook.id}/destinations`, { method: 'POST', headers: owner, body: JSON.stringify({ url: rx.url() }) })).status).to.equal(201);
    const traceId = randomHex(16);
    const res = await fetch(`${service.url}/hook/${hook.id}`, { method: 'POST', headers: { 'content-type': 'application/json', traceparent: `00-${traceId}-${randomHex(8)}-01` }, body: '{"n":1}' });
    expect(res.status).to.equal(200);
    const entry = ((await res.json()) as { entry: string }).entry;

    const spans = await spansOf(traceId, [/^POST \/hook\/:id$/, /^webhook intake$/, /^webhook forward$/]);
    const intake = spans.find((s) => s.name === 'webhook intake')!;
    expect(intake.attributes).to.deep.include({ 'switchyard.webhook': hook.id, 'switchyard.delivery': entry, 'switchyard.outcome': 'accepted' });
    const forward = spans.find((s) => s.name === 'webhook forward')!;
    expect(forward.kind).to.equal(3);
    expect(forward.attributes).to.deep.include({ 'http.response.status_code': 200 });
    const sent = await eventually(async () => rx.received.find((r) => r.headers['webhook-id'] === entry), 'the forwarded delivery');
    expect((sent.headers['traceparent'] as string).match(TRACEPARENT)!.slice(1, 3)).to.deep.equal([traceId, forward.spanId]);
  });
});

if (engines().includes('postgres')) {
  describe('traces: an api process and a worker on one PostgreSQL database', function () {
    this.timeout(90_000);

    it('puts the api\'s intake and the worker\'s forwarding attempt in one trace, kept with the attempt\'s invocation', async () => {
      const otlp = await startOtlpReceiver();
      const rx = await startReceiver();
      const db = await freshDatabase('postgres');
      const dir = mkdtempSync(join(tmpdir(), 'switchyard-traces-'));
      writeFileSync(join(dir, 'config.json'), JSON.stringify({ webhooks: { forwarding: { allow: [`127.0.0.1:${rx.port}`], pollMs: 50 } } }));
      const env = { SWITCHYARD_API_KEY: TEST_API_KEY, DATABASE_URL: db.url, SWITCHYARD_CONFIG: join(dir, 'config.json'), OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_BSP_SCHEDULE_DELAY: '50' };
      let api: { child: Child; url: string } | undefined;
      let worker: Child | undefined;
      try {
        api = await startServiceProcess({ ...env, SWITCHYARD_ROLE: 'api', OTEL_SERVICE_NAME: 'switchyard-api' });
        worker = await startWorkerProcess({ ...env, OTEL_SERVICE_NAME: 'switchyard-worker' });
        const hook = (await (await fetch(`${api.url}/api/objects/webhook`, { method: 'POST', headers: owner, body: JSON.stringify({ name: 'traced' }) })).json()) as { id: string };
        expect((await fetch(`${api.url}/api/objects/webhook/${hook.id}/destinations`, { method: 'POST', headers: owner, body: JSON.stringify({ url: rx.url() }) })).status).to.equal(201);
        const traceId = randomHex(16);
        const res = await fetch(`${api.url}/hook/${hook.id}`, { method: 'POST', headers: { 'content-type': 'application/json', traceparent: `00-${traceId}-${randomHex(8)}-01` }, body: '{"n":1}' });
        expect(res.status).to.equal(200);
        const entry = ((await res.json()) as { entry: string }).entry;

        const spans = await eventually(async () => {
          const of = otlp.spans.filter((s) => s.traceId === traceId);
          return of.some((s) => s.name === 'webhook intake') && of.some((s) => s.name === 'webhook forward') && of.some((s) => s.name === 'ledger append' && s.service === 'switchyard-worker') ? of : undefined;
        }, 'the intake and the attempt in one trace');
        const intake = spans.find((s) => s.name === 'webhook intake')!;
        const forward = spans.find((s) => s.name === 'webhook forward')!;
        expect(intake.service).to.equal('switchyard-api');
        expect(forward.service).to.equal('switchyard-worker');
        const sent = await eventually(async () => rx.received.find((r) => r.headers['webhook-id'] === entry), 'the forwarded delivery');
        expect((sent.headers['traceparent'] as string).match(TRACEPARENT)!.slice(1, 3)).to.deep.equal([traceId, forward.spanId]);

        // The attempt's invocation, recorded by the worker, keeps the delivery's trace.
        const forwarding = await eventually(async () => {
          const f = ((await (await fetch(`${api!.url}/api/ledger/${entry}`, { headers: owner })).json()) as { entry: { forwarding: Array<{ state: string; invocations: string[] }> } }).entry.forwarding[0];
          return f?.state === 'delivered' ? f : undefined;
        }, 'delivered');
        const attempt = (await (await fetch(`${api.url}/api/invocations/${forwarding.invocations[0]}`, { headers: owner })).json()) as { invocation: { trace_id: string } };
        expect(attempt.invocation.trace_id).to.equal(traceId);
      } finally {
        await worker?.stop();
        await api?.child.stop();
        await rx.close();
        await otlp.close();
        await db.drop();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}
