import { createHash } from 'node:crypto';
import { expect } from 'chai';
import {
  ByteBudget,
  STORING_BUDGET_BYTES,
  CapabilityRegistry,
  DispatchService,
  RunnerDirectory,
  SwitchyardError,
  WebhookIntake,
  type ActionRecord,
  type DeliveryHead,
  type DeliveryRecord,
  type DeliveryScheduler,
  type DeliveryStore,
  type NewForwardJob,
  type EventTypeCounts,
  type StoredDelivery,
  type Webhook,
  type WebhookStore,
} from '../../src/index.js';
import { MemoryInvocationStore } from '@switchyard/plugin-kit/testing';
import { echoCapability, echoRunner, ownerOnlyCapability } from '../fixtures.js';

/** Deliveries in memory; like the database, the first accepted delivery of an id wins, and only it keeps its schedule. */
class MemoryDeliveries implements DeliveryStore {
  readonly rows: StoredDelivery[] = [];
  readonly actions: ActionRecord[] = [];
  /** Forwarding jobs written with their delivery. */
  readonly scheduled: NewForwardJob[] = [];
  async append(r: DeliveryRecord, schedule: readonly NewForwardJob[] = []): Promise<StoredDelivery> {
    const first = r.delivery_id && r.outcome === 'accepted' ? this.rows.find((d) => d.hook_id === r.hook_id && d.delivery_id === r.delivery_id && d.outcome === 'accepted' && !d.duplicate) : undefined;
    const stored: StoredDelivery = {
      ...r,
      seq: this.rows.length + 1,
      body_sha256: r.body ? createHash('sha256').update(r.body).digest('hex') : null,
      body_omitted: false,
      duplicate: first !== undefined,
      duplicate_of: first?.id ?? (r.delivery_id ? r.id : null),
      action_run: null,
    };
    this.rows.push(stored);
    if (stored.outcome === 'accepted' && !stored.duplicate) this.scheduled.push(...schedule);
    return stored;
  }
  async appendAction(a: ActionRecord): Promise<void> {
    this.actions.push(a);
  }
  async get(id: string): Promise<StoredDelivery | undefined> {
    const d = this.rows.find((x) => x.id === id);
    return d && { ...d, action_run: this.actions.find((a) => a.delivery === id) ?? null };
  }
  async getMany(ids: string[]): Promise<StoredDelivery[]> {
    return (await Promise.all(ids.map((id) => this.get(id)))).filter((d) => d !== undefined);
  }
  async list(): Promise<{ items: StoredDelivery[]; next_cursor: string | null }> {
    return { items: [...this.rows].reverse(), next_cursor: null };
  }
  async countEventTypes(): Promise<EventTypeCounts> {
    const counts = new Map<string | null, number>();
    for (const d of this.rows) counts.set(d.event_type, (counts.get(d.event_type) ?? 0) + 1);
    return { items: [...counts].map(([event_type, count]) => ({ event_type, count })), more: false };
  }
  async readBody(id: string, offset: number, length: number): Promise<Uint8Array | undefined> {
    return this.rows.find((x) => x.id === id)?.body?.subarray(offset, offset + length);
  }
}

const hook = (on: boolean): Webhook => ({ id: 'hk_AAAAAAAAAAAA', name: 'test', on, delivery_id_path: null, event_type_path: null, signature: null, retention_private_days: null, created_at: '', updated_at: '' });

function setup(on = true) {
  const registry = new CapabilityRegistry();
  const runners = new RunnerDirectory();
  for (const def of [echoCapability, ownerOnlyCapability]) {
    registry.register(def);
    runners.assign(def.key, echoRunner);
  }
  const clock = { now: () => new Date(Date.UTC(2030, 4, 6, 7, 8, 9)) };
  const invocations = new MemoryInvocationStore();
  const dispatch = new DispatchService(registry, runners, invocations, clock, { timeoutMs: 1000 });
  const webhooks: WebhookStore = { create: async (w) => w, get: async (id) => (id === 'hk_AAAAAAAAAAAA' ? hook(on) : undefined), list: async () => [hook(on)], update: async () => undefined };
  const deliveries = new MemoryDeliveries();
  // A scheduler with one destination: each plan is one job, and what its commit settled is kept.
  const planned: string[] = [];
  const settled: Array<string | null> = [];
  const scheduler: DeliveryScheduler = {
    plan: async (record) => {
      planned.push(record.id);
      const job: NewForwardJob = { id: `fwd_${record.id}`, delivery: record.id, hook_id: record.hook_id, destination: 'dst_1', state: 'pending', attempts: 0, last_status: null, due_at: 0, invocations: [], ordered: false, created_at: '' };
      return { jobs: [job], settled: (stored) => void settled.push(stored && !stored.duplicate ? stored.id : null) };
    },
  };
  const intake = new WebhookIntake(webhooks, deliveries, registry, dispatch, clock, { bodyLimitBytes: 100, refusedBodyBytes: 4, answerStatus: (code) => (code ? 422 : 200) }, { requestId: () => 'req-4711' }, scheduler);
  return { intake, deliveries, invocations, forwarded: deliveries.scheduled, planned, settled };
}

const head = (over: Partial<DeliveryHead> = {}): DeliveryHead => ({
  hookId: 'hk_AAAAAAAAAAAA',
  action: null,
  method: 'POST',
  path: '/hook/hk_AAAAAAAAAAAA',
  query: '',
  headers: [['content-type', 'application/json']],
  contentType: 'application/json',
  clientAddress: '127.0.0.1',
  declaredSize: 10,
  ...over,
});
const bytes = (s: string) => new Uint8Array(Buffer.from(s));

describe('core: webhook intake', () => {
  it('decides from the head alone: unknown throws, Off keeps a prefix, an announced size over the limit is refused unread', async () => {
    const { intake } = setup();
    try {
      await intake.admit(head({ hookId: 'hk_BBBBBBBBBBBB' }));
      expect.fail('should throw');
    } catch (err) {
      expect(SwitchyardError.is(err, 'webhook_not_found')).to.equal(true);
    }
    expect(await intake.admit(head({ declaredSize: 101 }))).to.deep.include({ kind: 'too_large', size: 101 });
    expect(await intake.admit(head({ declaredSize: null }))).to.deep.include({ kind: 'read', limit: 100 });
    expect(await setup(false).intake.admit(head())).to.deep.include({ kind: 'off', keep: 4 });
  });

  it('stores an Off refusal with the first bytes, flagged truncated with the declared size, at the clock time', async () => {
    const { intake, deliveries, forwarded } = setup(false);
    const result = await intake.refuseOff(head({ declaredSize: 5000 }), hook(false), bytes('{"a"'), false);
    expect(result.kind).to.equal('refused');
    const d = deliveries.rows[0]!;
    expect(d).to.include({ outcome: 'refused', body_size: 5000, received_at: '2030-05-06T07:08:09.000Z', request_id: 'req-4711' });
    expect(Buffer.from(d.body!).toString()).to.equal('{"a"');
    expect(d.refusal).to.deep.equal({ code: 'webhook_off', message: d.refusal!.message, body_truncated: true, declared_size: 5000 });
    expect(forwarded).to.deep.equal([]);
  });

  it('writes the schedule in the delivery’s own commit, for the first accepted delivery only: never for duplicates or refusals', async () => {
    const { intake, deliveries, forwarded, planned, settled } = setup();
    const withId = head({ headers: [['content-type', 'application/json'], ['webhook-id', 'msg_1']] });
    const first = await intake.deliver(withId, hook(true), bytes('{}'));
    const again = await intake.deliver(withId, hook(true), bytes('{}'));
    const refused = await intake.deliver(head({ action: 'TEST_ECHO' }), hook(true), bytes('{"text":""}'));
    expect([first.kind, again.kind, refused.kind]).to.deep.equal(['accepted', 'duplicate', 'refused']);
    const [firstRow, againRow] = deliveries.rows;
    expect(forwarded.map((j) => j.delivery)).to.deep.equal([firstRow!.id]);
    // The duplicate was planned (the database decides what is a duplicate) but its jobs were dropped; the refusal was not planned.
    expect(planned).to.deep.equal([firstRow!.id, againRow!.id]);
    expect(settled).to.deep.equal([firstRow!.id, null]);
  });

  it('tells the scheduler of a failed commit, so that nothing it leased is attempted', async () => {
    const { intake, deliveries, settled } = setup();
    deliveries.append = async () => {
      throw new SwitchyardError('storage_unavailable', 'the database is away');
    };
    const failed = await intake.deliver(head(), hook(true), bytes('{}')).catch((err: unknown) => err);
    expect(SwitchyardError.is(failed, 'storage_unavailable')).to.equal(true);
    expect(settled).to.deep.equal([null]);
  });

  it('refuses a delivery whose action would be refused, with the action’s code, and still ledgers the refused run', async () => {
    const { intake, deliveries, invocations } = setup();
    for (const [action, body, code] of [
      ['TEST_ECHO', '{"text":""}', 'invalid_arguments'],
      ['TEST_ECHO', 'not json', 'invalid_arguments'],
      ['TEST_OWNER_ONLY', '{"text":"x"}', 'credential_required'],
    ] as const) {
      const result = await intake.deliver(head({ action }), hook(true), bytes(body));
      expect(result.kind).to.equal('refused');
      if (result.kind !== 'refused') return;
      expect(result.error.code).to.equal(code);
      expect(result.delivery).to.include({ outcome: 'refused' });
      expect(result.delivery.refusal!.code).to.equal(code);
      expect(result.run!.invocation).to.include({ ran: false, ok: false, source: `hook:hk_AAAAAAAAAAAA/${result.delivery.id}` });
      expect(await invocations.get(result.run!.invocation.id)).to.not.equal(undefined);
      expect(deliveries.actions.at(-1)).to.include({ delivery: result.delivery.id, status: 'refused', created_at: '2030-05-06T07:08:09.000Z' });
    }
  });

  it('runs an accepted action as hook:<id> and records its answer', async () => {
    const { intake, deliveries } = setup();
    const result = await intake.deliver(head({ action: 'TEST_ECHO' }), hook(true), bytes('{"text":"hi"}'));
    expect(result.kind).to.equal('ran');
    if (result.kind !== 'ran') return;
    expect(result.run.invocation).to.include({ ok: true, actor: 'hook:hk_AAAAAAAAAAAA' });
    // The delivery is named by the request it came in (the RequestScope port).
    expect(result.delivery.request_id).to.equal('req-4711');
    expect(deliveries.actions[0]).to.deep.include({ ok: true, status: 'ok', answer: { status: 200, body: { ok: true, result: result.run.invocation.result, invocation: result.run.invocation.id, error: null } } });
  });

  it('stores at most 16 MiB of bodies at once, in the order they came', async () => {
    const { intake, deliveries } = setup();
    const started: number[] = [];
    const release: Array<() => void> = [];
    const append = deliveries.append.bind(deliveries);
    deliveries.append = async (r) => {
      started.push(r.body?.length ?? 0);
      await new Promise<void>((done) => release.push(done));
      return append(r);
    };
    const large = new Uint8Array(STORING_BUDGET_BYTES / 2 + 1);
    const LARGE = large.length;
    const first = intake.deliver(head(), hook(true), large);
    const second = intake.deliver(head(), hook(true), large);
    const small = intake.deliver(head(), hook(true), bytes('{}'));
    await new Promise((r) => setImmediate(r));
    // Two large ones do not fit together: the second waits, and the small one after it.
    expect(started).to.deep.equal([LARGE]);
    release[0]!();
    await first;
    await new Promise((r) => setImmediate(r));
    expect(started).to.deep.equal([LARGE, LARGE, 2]);
    release.forEach((done) => done());
    expect((await Promise.all([second, small])).map((r) => r.kind)).to.deep.equal(['accepted', 'accepted']);
  });
});

describe('core: byte budget', () => {
  it('reserves what fits, refuses what does not, and releases', () => {
    const budget = new ByteBudget(100);
    expect(budget.tryReserve(60)).to.equal(true);
    expect(budget.tryReserve(41)).to.equal(false);
    expect(budget.inFlight).to.equal(60);
    expect(budget.tryReserve(40)).to.equal(true);
    budget.release(60);
    expect(budget.inFlight).to.equal(40);
    expect(budget.tryReserve(60)).to.equal(true);
    expect(budget.tryReserve(1)).to.equal(false);
  });

  it('makes reservations wait their turn, first come first served, and lets one larger than the budget go alone', async () => {
    const budget = new ByteBudget(100);
    const order: string[] = [];
    await budget.reserve(70);
    const a = budget.reserve(50).then(() => order.push('a'));
    const b = budget.reserve(10).then(() => order.push('b'));
    expect(budget.tryReserve(10), 'no jumping the queue').to.equal(false);
    await new Promise((r) => setImmediate(r));
    expect(order).to.deep.equal([]);
    budget.release(70);
    await Promise.all([a, b]);
    expect(order).to.deep.equal(['a', 'b']);
    budget.release(60);
    await budget.reserve(500);
    expect(budget.inFlight).to.equal(500);
  });
});
