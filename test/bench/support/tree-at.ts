// Another version of the project to measure against in the same run: the tree of a git ref
// (git archive) in a folder, with node_modules made of links to this checkout's packages except
// our own workspace packages, which link to that tree's. Third-party code is the same; ours is the ref's.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '@switchyard/app';

const SCOPE = '@switchyard';

/** Our workspace packages in `tree`: package name → folder. */
function workspacePackages(tree: string): Map<string, string> {
  const found = new Map<string, string>();
  const root = JSON.parse(readFileSync(join(tree, 'package.json'), 'utf8')) as { workspaces: string[] };
  for (const pattern of root.workspaces) {
    const folders = pattern.endsWith('/*') ? readdirSync(join(tree, pattern.slice(0, -2))).map((f) => join(pattern.slice(0, -2), f)) : [pattern];
    for (const folder of folders) {
      const manifest = join(tree, folder, 'package.json');
      if (existsSync(manifest)) found.set((JSON.parse(readFileSync(manifest, 'utf8')) as { name: string }).name, join(tree, folder));
    }
  }
  return found;
}

/** Writes the tree of `ref` to `dir` and makes it runnable; returns `dir`. */
export function treeAt(ref: string, dir: string): string {
  mkdirSync(dir, { recursive: true });
  const archive = execFileSync('git', ['-C', PROJECT_ROOT, 'archive', '--format=tar', ref], { maxBuffer: 1024 * 1024 * 1024 });
  execFileSync('tar', ['-x', '-C', dir], { input: archive });
  const modules = join(dir, 'node_modules');
  mkdirSync(join(modules, SCOPE), { recursive: true });
  for (const entry of readdirSync(join(PROJECT_ROOT, 'node_modules'))) {
    if (entry !== SCOPE) symlinkSync(join(PROJECT_ROOT, 'node_modules', entry), join(modules, entry));
  }
  for (const [name, folder] of workspacePackages(dir)) if (name.startsWith(`${SCOPE}/`)) symlinkSync(folder, join(modules, name));
  return dir;
}
