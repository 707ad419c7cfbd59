// A plugin's own Inversify container module: it binds its LoadedPlugin from what the host lends it.
import { ContainerModule } from 'inversify';
import type { Plugin } from './plugin.js';
import { startPlugin, type LoadedPlugin, type PluginEnvironment } from './start-plugin.js';

/** Every plugin module binds one of these; the host collects them all (getAllAsync). */
export const LoadedPluginToken = Symbol.for('switchyard.LoadedPlugin');
/** The host binds the environment plugins start in. */
export const PluginEnvironmentToken = Symbol.for('switchyard.PluginEnvironment');

export const pluginContainerModule = <O>(plugin: Plugin<O>, options: O): ContainerModule =>
  new ContainerModule(({ bind }) => {
    bind<LoadedPlugin>(LoadedPluginToken)
      .toResolvedValue((env: PluginEnvironment) => startPlugin(plugin, options, env), [PluginEnvironmentToken])
      .inSingletonScope();
  });
