// The shared plugin contract suite: every plugin package calls it from its own test.
// It registers the plugin's capabilities in a fresh registry (strict Ajv), checks each
// self-description, runs valid fixtures against the plugin's upstream, and checks that invalid
// fixtures fail as invalid_arguments and can be repaired.
import { expect } from 'chai';
import {
  CapabilityRegistry,
  DispatchService,
  OWNER,
  RunnerDirectory,
  describe as describeCapability,
  systemClock,
  type Caller,
  type PluginHost,
  type SwitchyardPlugin,
} from '@switchyard/core';
import { MemoryInvocationStore } from '../support/memory-store.js';

export interface PluginHarness<O> {
  /** Start whatever the plugin needs (its simulator) and return the host the runner gets. */
  setup(): Promise<{ host: PluginHost<O>; upstreamUrl?: string; teardown(): Promise<void> }>;
  /** Arguments (object or body string) that must run and succeed, per key. */
  valid: Record<string, unknown[]>;
  /** Arguments that must fail schema validation, per key. */
  invalid: Record<string, unknown[]>;
  /** Keys the harness cannot run with its owner credential (e.g. approval required). */
  notRunnable?: string[];
}

export const SELF_DESCRIPTION_FIELDS = ['Path', 'Capability', 'run_now', 'Example call', 'type · runner', 'inputs', 'outputs', 'auth · risk', 'From the router'];

export function pluginContract<O>(plugin: SwitchyardPlugin<O>, harness: PluginHarness<O>): void {
  describe(`plugin contract: ${plugin.name}`, function () {
    let teardown: () => Promise<void> = async () => {};
    let dispatch: DispatchService;
    let registry: CapabilityRegistry;
    const owner: Caller = OWNER;

    before(async function () {
      const ready = await harness.setup();
      teardown = ready.teardown;
      registry = new CapabilityRegistry();
      const runners = new RunnerDirectory();
      const runner = plugin.createRunner(ready.host);
      for (const def of plugin.capabilities) {
        registry.register(def, ready.upstreamUrl);
        runners.assign(def.key, runner);
      }
      dispatch = new DispatchService(registry, runners, new MemoryInvocationStore(), systemClock, { timeoutMs: 5000 });
    });

    after(async () => teardown());

    it('declares its system on every capability, with upper-case keys', function () {
      expect(plugin.capabilities.length).to.be.greaterThan(0);
      for (const c of plugin.capabilities) {
        expect(c.system).to.equal(plugin.system);
        expect(c.key).to.match(/^[A-Z][A-Z0-9_]+$/);
      }
    });

    it('declares honest MCP annotations: all four hints on every capability, read-only ones never destructive', function () {
      for (const c of plugin.capabilities) {
        for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint']) expect(c.annotations?.[hint], `${c.key} ${hint}`).to.be.a('boolean');
        if (c.annotations!.readOnlyHint) expect(c.annotations!.destructiveHint, c.key).to.equal(false);
      }
    });

    it('has input schemas that compile in strict Ajv and a complete self-description', function () {
      for (const def of plugin.capabilities) {
        const entry = registry.require(def.key);
        const block = describeCapability(entry.capability, 'http://127.0.0.1:8080');
        expect(Object.keys(block)).to.have.members(SELF_DESCRIPTION_FIELDS);
        expect(block.Path).to.equal(`OIP > ${plugin.system} > ${def.key}`);
        expect(block['Example call']).to.match(new RegExp(`^\\[${def.key}\\].*\\[/${def.key}\\]$`, 's'));
        expect(block.run_now).to.contain(`invoke=${def.key}`);
      }
    });

    it('has an example that passes its own schema', function () {
      for (const def of plugin.capabilities) {
        const { validate } = registry.require(def.key);
        const args = typeof def.example === 'string' && def.bodyFormat !== 'pipe' ? JSON.parse(def.example) : def.example;
        if (def.bodyFormat !== 'pipe') expect(validate(structuredClone(args)), def.key).to.deep.equal([]);
      }
    });

    it('runs every valid fixture to ok against its upstream', async function () {
      for (const [key, fixtures] of Object.entries(harness.valid)) {
        for (const body of fixtures) {
          const { invocation } = await dispatch.dispatch({ key, body }, owner);
          expect(invocation.ok, `${key} ${JSON.stringify(body)}: ${JSON.stringify(invocation.error)}`).to.equal(true);
          expect(invocation.ran).to.equal(true);
          expect(invocation.status).to.equal('ok');
        }
      }
    });

    it('fails invalid fixtures as invalid_arguments without running, and a repair closes the lineage', async function () {
      for (const [key, fixtures] of Object.entries(harness.invalid)) {
        for (const body of fixtures) {
          const { invocation: bad } = await dispatch.dispatch({ key, body }, owner);
          expect(bad.ok, `${key} ${JSON.stringify(body)} should fail`).to.equal(false);
          expect(bad.ran).to.equal(false);
          expect(bad.error?.code).to.equal('invalid_arguments');
          if ((harness.notRunnable ?? []).includes(key)) continue;
          const good = harness.valid[key]?.[0];
          if (good === undefined) continue;
          const { invocation: fixed } = await dispatch.dispatch({ key, body: good, repairs: bad.id }, owner);
          expect(fixed.ok).to.equal(true);
          expect(fixed.repairs).to.equal(bad.id);
        }
      }
    });
  });
}
