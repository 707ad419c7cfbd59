// Finding plugin packages named in config and checking each one's options against its own schema.
import { Ajv } from 'ajv';
import type { SwitchyardPlugin } from '@switchyard/core';
import { ConfigError, type Config } from './config.js';

const isPlugin = (value: unknown): value is SwitchyardPlugin<unknown> =>
  typeof value === 'object' && value !== null && Array.isArray((value as SwitchyardPlugin).capabilities) && typeof (value as SwitchyardPlugin).createRunner === 'function';

export interface PluginChoice {
  plugin: SwitchyardPlugin<unknown>;
  options: Record<string, unknown>;
}

/** Imports @switchyard/plugin-<name> for every enabled entry of config.plugins. */
export async function loadPlugins(config: Config): Promise<PluginChoice[]> {
  const chosen: PluginChoice[] = [];
  const ajv = new Ajv({ allErrors: true, strict: true, useDefaults: true });
  for (const [name, options] of Object.entries(config.plugins)) {
    if (options.enabled === false) continue;
    let mod: Record<string, unknown>;
    try {
      mod = (await import(`@switchyard/plugin-${name}`)) as Record<string, unknown>;
    } catch (err) {
      throw new ConfigError(`plugins.${name}`, `cannot load package @switchyard/plugin-${name}: ${(err as Error).message}`);
    }
    const plugin = Object.values(mod).find((v) => isPlugin(v) && v.name === name);
    if (!plugin || !isPlugin(plugin)) throw new ConfigError(`plugins.${name}`, `@switchyard/plugin-${name} exports no plugin named ${name}`);
    const checked = structuredClone(options);
    const validate = ajv.compile(plugin.optionsSchema);
    if (!validate(checked)) {
      const e = validate.errors![0]!;
      const extra = e.keyword === 'additionalProperties' ? `.${String(e.params['additionalProperty'])}` : '';
      throw new ConfigError(`plugins.${name}${e.instancePath.replace(/\//g, '.')}${extra}`, e.keyword === 'additionalProperties' ? 'is not a known setting' : (e.message ?? 'is invalid'));
    }
    chosen.push({ plugin, options: checked });
  }
  return chosen;
}
