// upstreams.servers from config, as core's import service takes them (ConfiguredServer): each with
// the address the MCP client connects to. A problem the import service finds in them (details.config_key)
// becomes the ConfigError the start is refused with.
import { SwitchyardError, type ConfiguredServer, type UpstreamAddress } from '@switchyard/core';
import { ConfigError, type UpstreamServerConfig } from './config.js';

/**
 * The address the MCP client connects to. A stdio server is shown as `stdio:<name>`: contracts are
 * public, and a command line can carry paths and secrets.
 */
export function upstreamAddress(name: string, config: UpstreamServerConfig): UpstreamAddress {
  if (config.transport === 'stdio') {
    return {
      url: `stdio:${name}`,
      transport: 'stdio',
      command: config.command!,
      ...(config.args ? { args: config.args } : {}),
      ...(config.env ? { env: config.env } : {}),
      ...(config.cwd ? { cwd: config.cwd } : {}),
    };
  }
  return { url: config.url!, transport: config.transport, ...(config.headers ? { headers: config.headers } : {}), ...(config.oauth ? { oauth: name } : {}) };
}

export function configuredServers(servers: Record<string, UpstreamServerConfig>): Record<string, ConfiguredServer> {
  return Object.fromEntries(
    Object.entries(servers).map(([name, s]) => [
      name,
      { system: s.system, address: upstreamAddress(name, s), ...(s.tools ? { tools: s.tools } : {}), ...(s.defaults ? { defaults: s.defaults } : {}), ...(s.onChange ? { onChange: s.onChange } : {}) },
    ]),
  );
}

/** Runs `make`; a configuration problem it reports is refused as a ConfigError naming its key. */
export async function refusingConfigProblems<T>(make: () => T | Promise<T>): Promise<T> {
  try {
    return await make();
  } catch (err) {
    const key = SwitchyardError.is(err) ? (err as SwitchyardError).details['config_key'] : undefined;
    if (typeof key === 'string') throw new ConfigError(key, String((err as SwitchyardError).details['problem']));
    throw err;
  }
}
