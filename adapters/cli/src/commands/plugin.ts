// `switchyard plugin new <dir> --system <SYSTEM>`: writes a complete plugin package that passes its own tests at once.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { CliError } from '../client.js';
import { pluginFiles } from '../plugin-template/files.js';

export interface PluginNewOptions {
  system?: string;
  name?: string;
  package?: string;
  kit?: string;
  simulator: boolean;
}

/** The kit range a new plugin asks for; --kit file:<checkout>/adapters/plugin-kit uses a local copy instead. */
export const DEFAULT_KIT = '^0.1.0';

export function pluginCommand(args: string[], options: PluginNewOptions, io: { out(text: string): void }): void {
  const [verb, dir] = args;
  if (verb !== 'new' || !dir || args.length > 2) throw new CliError('invalid_request', 'usage: switchyard plugin new <dir> --system <SYSTEM> [--name NAME] [--package NAME] [--kit SPEC] [--no-simulator]', 2);
  const system = options.system ?? '';
  if (!/^[A-Z][A-Z0-9]{1,30}$/.test(system)) throw new CliError('invalid_request', '--system must be upper-case letters and digits, e.g. --system TICKETS', 2);
  const target = resolve(dir);
  const name = options.name ?? basename(target).replace(/^switchyard-plugin-/, '').toLowerCase();
  if (!/^[a-z][a-z0-9-]*$/.test(name)) throw new CliError('invalid_request', `the plugin name ${JSON.stringify(name)} must be lower-case letters, digits and dashes (set it with --name)`, 2);
  if (existsSync(target) && readdirSync(target).length > 0) throw new CliError('invalid_request', `${dir} exists and is not empty`, 2);
  const files = pluginFiles({ name, system, packageName: options.package ?? `switchyard-plugin-${name}`, kit: options.kit ?? DEFAULT_KIT, simulator: options.simulator });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(target, path)), { recursive: true });
    writeFileSync(join(target, path), text);
  }
  io.out(`wrote plugin ${name} (system ${system}) to ${dir}:\n${Object.keys(files).map((f) => `  ${f}`).join('\n')}\n\nnext: cd ${dir} && npm install && npm test\n(npm install also compiles src/ to dist/, which npm start loads)`);
}
