// Finding the plugin packages named in config (plugins.<name>.from) and having each check its own options.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isPlugin, type Plugin } from '@switchyard/plugin-kit';
import { ConfigError, type Config } from './config.js';
import { PROJECT_ROOT } from './paths.js';

export interface PluginChoice {
  plugin: Plugin<unknown>;
  /** The options as the plugin's own validateOptions answered them. */
  options: unknown;
}

/** The default `from` of plugins.<name>: the workspace or installed package @switchyard/plugin-<name>. */
export const defaultPluginPackage = (name: string): string => `@switchyard/plugin-${name}`;

const isPath = (from: string): boolean => from.startsWith('.') || isAbsolute(from);

/** A workspace package under plugins/ whose package.json names it `name` (found without npm linking it). */
function workspacePlugin(name: string): string | undefined {
  const folder = join(PROJECT_ROOT, 'plugins');
  if (!existsSync(folder)) return undefined;
  for (const entry of readdirSync(folder)) {
    const manifest = join(folder, entry, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === name) return join(folder, entry);
  }
  return undefined;
}

/** The module file of a package folder: its own name resolved from inside it (exports and conditions apply). */
function entryOfFolder(folder: string): string {
  const manifest = join(folder, 'package.json');
  if (!existsSync(manifest)) throw new Error(`${folder} has no package.json`);
  const { name } = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string };
  if (!name) throw new Error(`${manifest} has no name`);
  try {
    return createRequire(manifest).resolve(name);
  } catch (err) {
    // A scaffolded package points at dist/, which exists only once it is compiled.
    const missing = /^Cannot find module '([^']+)'/.exec((err as Error).message)?.[1];
    if ((err as { code?: string }).code === 'MODULE_NOT_FOUND' && missing?.startsWith(folder)) {
      throw new Error(`${missing} does not exist: the package is not compiled; run npm install (its prepare compiles it) or npm run build in ${folder}`);
    }
    throw err;
  }
}

// The compiled service (npm start) runs plain Node, which cannot run a plugin's TypeScript source;
// under tsx (npm run dev, the tests) it can. A failure to load TypeScript says which to do.
const runsTypeScript = process.execArgv.some((arg) => arg.includes('tsx'));

async function importFile(file: string): Promise<Record<string, unknown>> {
  try {
    return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (err) {
    if (!runsTypeScript && /\.[cm]?ts$/.test(file)) {
      throw new Error(`${(err as Error).message}; ${file} is TypeScript: npm start runs compiled JavaScript, so compile the plugin (docs/plugins.md), or run the service from source with npm run dev`);
    }
    throw err;
  }
}

async function importPlugin(from: string): Promise<Record<string, unknown>> {
  if (isPath(from)) {
    // Relative paths resolve against the working directory, like a sqlite: database file.
    const target = resolve(from);
    return importFile(statSync(target).isDirectory() ? entryOfFolder(target) : target);
  }
  const folder = workspacePlugin(from);
  if (folder) return importFile(entryOfFolder(folder));
  return (await import(from)) as Record<string, unknown>;
}

/** Imports every enabled entry of config.plugins and validates its options with the plugin's own check. */
export async function loadPlugins(config: Config): Promise<PluginChoice[]> {
  const chosen: PluginChoice[] = [];
  for (const [name, entry] of Object.entries(config.plugins)) {
    const { enabled, from = defaultPluginPackage(name), ...options } = entry;
    if (enabled === false) continue;
    let mod: Record<string, unknown>;
    try {
      mod = await importPlugin(from);
    } catch (err) {
      throw new ConfigError(`plugins.${name}.from`, `cannot load ${from}: ${(err as Error).message}`);
    }
    const plugin = [mod['default'], ...Object.values(mod)].find((v) => isPlugin(v) && v.name === name);
    if (!plugin || !isPlugin(plugin)) throw new ConfigError(`plugins.${name}.from`, `${from} exports no plugin named ${name} (made with definePlugin from @switchyard/plugin-kit)`);
    try {
      chosen.push({ plugin, options: plugin.validateOptions(options) });
    } catch (err) {
      const { key, problem } = err as { key?: string; problem?: string };
      if (key && problem) throw new ConfigError(key, problem);
      throw err;
    }
  }
  return chosen;
}
