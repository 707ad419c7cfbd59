// Where the shared test vectors are: $SWITCHYARD_VECTORS_DIR, else a `shared/vectors` folder beside
// the project or beside one of its parents (the workspace keeps them next to the repository; they
// are not copied into it). Missing vectors fail the suite loudly: they are never skipped.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export function vectorsDir(): string {
  const fromEnv = process.env['SWITCHYARD_VECTORS_DIR'];
  if (fromEnv) return fromEnv;
  for (let dir = projectRoot; ; dir = dirname(dir)) {
    const candidate = join(dirname(dir), 'shared', 'vectors');
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) break;
  }
  throw new Error(`test vectors not found: set SWITCHYARD_VECTORS_DIR (looked for shared/vectors beside ${projectRoot} and its parents)`);
}

/** Every *.json file under `sub`, with its path relative to the vectors folder. */
export function vectorFiles(sub: string): Array<{ name: string; text: string }> {
  const out: Array<{ name: string; text: string }> = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir).sort()) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (entry.endsWith('.json')) out.push({ name: path.slice(vectorsDir().length + 1), text: readFileSync(path, 'utf8') });
    }
  };
  walk(join(vectorsDir(), sub));
  return out;
}
