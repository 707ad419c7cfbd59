// The plugin a package exports, as types: what it states (PluginSpec) and what definePlugin makes of it (Plugin).
import type { ContainerModule } from 'inversify';
import type { JsonSchema, SwitchyardPlugin, UpstreamAddress } from '@switchyard/core';

/** Where a tool plugin's upstream is, as config states it: a real server's URL, or "simulator". */
export interface UpstreamSetting {
  url: string;
  transport?: UpstreamAddress['transport'];
  headers?: Record<string, string>;
}

/** What a plugin package states; definePlugin adds what the host needs to load it. */
export interface PluginSpec<Options> extends SwitchyardPlugin<Options> {
  /** The upstream named in the (validated) options; tool plugins read it from their `upstream` option. */
  upstream?(options: Options): UpstreamSetting | undefined;
  /** Settings handed to the simulator, from the (validated) options. */
  simulatorSettings?(options: Options): Record<string, unknown> | undefined;
  /**
   * The plugin's own Inversify container module; it must bind one LoadedPlugin under
   * LoadedPluginToken. Default: pluginContainerModule (start the simulator, make the runner).
   */
  containerModule?(options: Options): ContainerModule;
}

/** A loadable plugin: its spec plus the options check the host calls at load. */
export interface Plugin<Options = unknown> extends PluginSpec<Options> {
  /**
   * Checks plugins.<name> from config against optionsSchema (defaults applied) and answers the
   * typed options, or throws a PluginOptionsError naming the bad key.
   */
  validateOptions(raw: unknown): Options;
  containerModule(options: Options): ContainerModule;
  /** Marks a value made by definePlugin, so the host can tell a plugin from any other export. */
  readonly kit: 1;
}
