// Go's golang.org/x/mod/sumdb/tlog and note as an independent check of our tlog-tiles: builds
// tlog-check (beside this file) offline against Debian's golang-golang-x-mod-dev, in GOPATH mode
// (no module download: GOPROXY=off, the toolchain that is installed), and runs it.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const SOURCE = join(dirname(fileURLToPath(import.meta.url)), 'tlog-check');
/** Where Debian's golang-*-dev packages put their sources (SWITCHYARD_GOPATH overrides it). */
const GOPATH = process.env['SWITCHYARD_GOPATH'] ?? '/usr/share/gocode';
const GO_ENV = { ...process.env, GO111MODULE: 'off', GOPATH, GOPROXY: 'off', GOTOOLCHAIN: 'local', GOFLAGS: '' };

let built: Promise<string> | undefined;

/** The built tlog-check binary (built once per test process). Fails, never skips, without Go. */
export function goTlogCheck(): Promise<string> {
  built ??= (async () => {
    if (!existsSync(join(GOPATH, 'src/golang.org/x/mod/sumdb/tlog'))) throw new Error(`golang.org/x/mod is not under ${GOPATH}: apt-get install golang-go golang-golang-x-mod-dev`);
    const binary = join(mkdtempSync(join(tmpdir(), 'switchyard-go-')), 'tlog-check');
    await run('go', ['build', '-o', binary, '.'], { cwd: SOURCE, env: GO_ENV, timeout: 120_000 });
    return binary;
  })();
  return built;
}

export interface GoCheck {
  ok: boolean;
  /** One line per check: "ok …" or "FAIL …". */
  lines: string[];
}

/** Runs tlog-check against a log prefix; resolves with its lines whether it passed or not. */
export async function runGoTlogCheck(args: { prefix: string; vkey: string; index?: number; contains?: string; old?: string }): Promise<GoCheck> {
  const argv = ['-prefix', args.prefix, '-vkey', args.vkey];
  if (args.index !== undefined) argv.push('-index', String(args.index), '-contains', args.contains ?? '');
  if (args.old !== undefined) argv.push('-old', args.old);
  try {
    const { stdout } = await run(await goTlogCheck(), argv, { timeout: 60_000 });
    return { ok: true, lines: stdout.trim().split('\n') };
  } catch (e) {
    const out = (e as { stdout?: string }).stdout ?? String(e);
    return { ok: false, lines: out.trim().split('\n') };
  }
}
