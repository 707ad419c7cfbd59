// The RFC 6962 and JCS test vectors, kept in the repository under test/vectors/ (origins and
// licences in test/vectors/NOTICE), so that a clone passes its own tests with nothing beside it.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The vectors folder of this repository. */
export const VECTORS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../../test/vectors');

/** Every *.json file under `sub`, with its path relative to the vectors folder. */
export function vectorFiles(sub: string): Array<{ name: string; text: string }> {
  const out: Array<{ name: string; text: string }> = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir).sort()) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (entry.endsWith('.json')) out.push({ name: relative(VECTORS_DIR, path), text: readFileSync(path, 'utf8') });
    }
  };
  walk(join(VECTORS_DIR, sub));
  if (out.length === 0) throw new Error(`no test vectors under ${join(VECTORS_DIR, sub)}`);
  return out;
}
