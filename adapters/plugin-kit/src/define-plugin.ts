// The plugin type a package exports, and definePlugin: options checked against the plugin's own schema at load.
import { Ajv, type ErrorObject } from 'ajv';
import { pluginContainerModule } from './container-module.js';
import { ToolRunner, SwitchyardError, type CapabilityRunner, type JsonSchema, type PluginHost, type UpstreamAddress } from '@switchyard/core';
import type { Plugin, PluginSpec } from './plugin.js';

export type { Plugin, PluginSpec, UpstreamSetting } from './plugin.js';

/** A plugin's options were refused: `key` names the setting (plugins.<name>.…), `message` what is wrong. */
export class PluginOptionsError extends Error {
  constructor(
    readonly key: string,
    readonly problem: string,
  ) {
    super(`${key} ${problem}`);
    this.name = 'PluginOptionsError';
  }
}

const ajv = new Ajv({ allErrors: true, strict: true, useDefaults: true });

/** The key an Ajv error points at, in config's dotted form. */
function keyOf(prefix: string, e: ErrorObject): string {
  const path = e.instancePath.split('/').slice(1).map((p) => `.${p}`).join('');
  const extra = e.keyword === 'additionalProperties' ? `.${String(e.params['additionalProperty'])}` : e.keyword === 'required' ? `.${String(e.params['missingProperty'])}` : '';
  return `${prefix}${path}${extra}`;
}

export function definePlugin<Options>(spec: PluginSpec<Options>): Plugin<Options> {
  const validate = ajv.compile(spec.optionsSchema);
  const plugin: Plugin<Options> = {
    ...spec,
    kit: 1,
    containerModule: (options) => spec.containerModule?.(options) ?? pluginContainerModule(plugin, options),
    validateOptions(raw: unknown): Options {
      const options = structuredClone(raw ?? {});
      if (validate(options)) return options as Options;
      const e = validate.errors![0]!;
      const problem = e.keyword === 'additionalProperties' ? 'is not a known setting' : e.keyword === 'required' ? 'is required' : (e.message ?? 'is invalid');
      throw new PluginOptionsError(keyOf(`plugins.${spec.name}`, e), problem);
    },
  };
  return plugin;
}

export const isPlugin = (value: unknown): value is Plugin<unknown> =>
  typeof value === 'object' && value !== null && (value as Plugin).kit === 1 && typeof (value as Plugin).validateOptions === 'function' && Array.isArray((value as Plugin).capabilities);

/** The `upstream` option of a tool plugin, as JSON Schema (url required; "simulator" starts the bundled one). */
export const upstreamOptionsSchema = (transport: UpstreamAddress['transport'], description = '"simulator" or the URL of a real server'): JsonSchema => ({
  type: 'object',
  properties: {
    url: { type: 'string', minLength: 1, description },
    transport: { enum: ['sse', 'streamable-http'], default: transport },
    headers: { type: 'object', additionalProperties: { type: 'string' } },
  },
  required: ['url'],
  additionalProperties: false,
});

/** The runner of a tool plugin: every capability is one call to its upstream tool. */
export const toolRunner = ({ tools, upstream }: PluginHost<unknown>): CapabilityRunner => {
  if (!upstream) throw new SwitchyardError('upstream_unavailable', 'the plugin has no upstream: set its upstream.url ("simulator" or a server URL)');
  return new ToolRunner(tools, upstream);
};
