// The plugin contract suite, in keyv's and abstract-level's style: a plugin package calls it from its own test
// with a factory that starts the plugin (startPluginHarness) and flags for the optional groups.
import { expect } from 'chai';
import { OWNER, describe as describeCapability } from '@switchyard/core';
import { PluginOptionsError } from './define-plugin.js';
import type { Plugin } from './plugin.js';
import type { Fixtures } from './fixtures.js';
import type { PluginHarness } from './harness.js';

export interface PluginContractOptions<O> {
  /** Starts the plugin for the suite (called once, closed after it); usually startPluginHarness(plugin, options). */
  start(): Promise<PluginHarness<O>>;
  /** Arguments (object or body string) that must run and succeed, per key. */
  valid: Fixtures;
  /** Arguments that must fail schema validation, per key. */
  invalid: Fixtures;
  /** Keys the suite cannot run with the owner's credential (e.g. approval required). */
  notRunnable?: string[];
  /** Optional groups; each defaults as noted. */
  supports?: {
    /** The simulator lists every tool the plugin's capabilities call (default: the plugin has a simulator). */
    simulator?: boolean;
    /** Valid fixtures run to ok (default true; false when no upstream can be reached in tests). */
    runs?: boolean;
    /** A repair of a refused run succeeds and closes the lineage (default: same as runs). */
    repairs?: boolean;
    /** The options schema refuses an unknown setting, naming it (default true). */
    strictOptions?: boolean;
  };
}

export const SELF_DESCRIPTION_FIELDS = ['Path', 'Capability', 'run_now', 'Example call', 'type · runner', 'inputs', 'outputs', 'auth · risk', 'From the router'];

export function pluginContract<O>(plugin: Plugin<O>, contract: PluginContractOptions<O>): void {
  const supports = {
    simulator: contract.supports?.simulator ?? plugin.startSimulator !== undefined,
    runs: contract.supports?.runs ?? true,
    strictOptions: contract.supports?.strictOptions ?? true,
  };
  const repairs = contract.supports?.repairs ?? supports.runs;

  describe(`plugin contract: ${plugin.name}`, function () {
    let h: PluginHarness<O>;
    before(async function () {
      h = await contract.start();
    });
    after(async () => h?.close());

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
        const entry = h.registry.require(def.key);
        const block = describeCapability(entry.capability, 'http://127.0.0.1:8080');
        expect(Object.keys(block)).to.have.members(SELF_DESCRIPTION_FIELDS);
        expect(block.Path).to.equal(`OIP > ${plugin.system} > ${def.key}`);
        expect(block['Example call']).to.match(new RegExp(`^\\[${def.key}\\].*\\[/${def.key}\\]$`, 's'));
        expect(block.run_now).to.contain(`invoke=${def.key}`);
      }
    });

    it('has an example that passes its own schema', function () {
      for (const def of plugin.capabilities) {
        const { validate } = h.registry.require(def.key);
        if (def.bodyFormat === 'pipe') continue;
        const args = typeof def.example === 'string' ? JSON.parse(def.example) : def.example;
        expect(validate(structuredClone(args)), def.key).to.deep.equal([]);
      }
    });

    it('fails invalid fixtures as invalid_arguments without running them', async function () {
      expect(Object.keys(contract.invalid).length, 'at least one invalid fixture').to.be.greaterThan(0);
      for (const [key, fixtures] of Object.entries(contract.invalid)) {
        for (const body of fixtures) {
          const { invocation: bad } = await h.dispatch.dispatch({ key, body }, OWNER);
          expect(bad.ok, `${key} ${JSON.stringify(body)} should fail`).to.equal(false);
          expect(bad.ran).to.equal(false);
          expect(bad.error?.code).to.equal('invalid_arguments');
        }
      }
    });

    if (supports.strictOptions) {
      it('refuses an unknown option at load, naming its key', function () {
        expect(() => plugin.validateOptions({ ...(h.options as object), not_a_setting: true }))
          .to.throw(PluginOptionsError)
          .with.property('key', `plugins.${plugin.name}.not_a_setting`);
      });
    }

    if (supports.simulator) {
      it('has a simulator that lists every tool its capabilities call, with an input schema', async function () {
        expect(h.loaded.upstream, 'the harness started the plugin on its simulator').to.not.equal(undefined);
        const listed = await h.tools.listTools(h.loaded.upstream!, { timeoutMs: 5000 });
        for (const c of plugin.capabilities.filter((d) => d.type === 'tool')) {
          const tool = listed.find((t) => t.name === (c.tool ?? c.key.toLowerCase()));
          expect(tool, `${c.key} calls ${c.tool ?? c.key.toLowerCase()}`).to.not.equal(undefined);
          expect(tool!.inputSchema).to.be.an('object');
        }
      });
    }

    if (supports.runs) {
      it('runs every valid fixture to ok against its upstream, recorded in the ledger', async function () {
        expect(Object.keys(contract.valid).length, 'at least one valid fixture').to.be.greaterThan(0);
        for (const [key, fixtures] of Object.entries(contract.valid)) {
          for (const body of fixtures) {
            const { invocation } = await h.dispatch.dispatch({ key, body }, OWNER);
            expect(invocation.ok, `${key} ${JSON.stringify(body)}: ${JSON.stringify(invocation.error)}`).to.equal(true);
            expect(invocation.ran).to.equal(true);
            expect(invocation.status).to.equal('ok');
            expect((await h.invocations.get(invocation.id))?.ok).to.equal(true);
          }
        }
      });
    }

    if (repairs) {
      it('repairs a refused run with a valid one, which links back to it', async function () {
        let repaired = 0;
        for (const [key, fixtures] of Object.entries(contract.invalid)) {
          const good = contract.valid[key]?.[0];
          if (good === undefined || (contract.notRunnable ?? []).includes(key)) continue;
          const { invocation: bad } = await h.dispatch.dispatch({ key, body: fixtures[0] }, OWNER);
          const { invocation: fixed } = await h.dispatch.dispatch({ key, body: good, repairs: bad.id }, OWNER);
          expect(fixed.ok, JSON.stringify(fixed.error)).to.equal(true);
          expect(fixed.repairs).to.equal(bad.id);
          expect((await h.invocations.get(bad.id))?.repaired_by).to.deep.equal([fixed.id]);
          repaired += 1;
        }
        expect(repaired, 'a key with both valid and invalid fixtures').to.be.greaterThan(0);
      });
    }
  });
}
