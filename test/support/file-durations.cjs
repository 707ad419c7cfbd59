// Each test file's wall time, printed slowest first when a parallel run ends, so a file that grows
// is seen. Loaded by mocha (.mocharc `require`) in the main process and in each worker: a worker
// runs one file per task, so its root hooks bracket exactly that file (before hooks, service boots
// and all); the main process collects what the workers wrote and prints the table at exit. A serial
// run (one file, `--no-parallel`) prints nothing: its root hooks bracket the whole run.
'use strict';
const { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join, relative } = require('node:path');

const WORKER = process.env.MOCHA_WORKER_ID !== undefined;
const SHOWN = 10;

if (!WORKER && !process.env.SWITCHYARD_TEST_DURATIONS) {
  const folder = mkdtempSync(join(tmpdir(), 'switchyard-durations-'));
  process.env.SWITCHYARD_TEST_DURATIONS = folder;
  process.on('exit', () => {
    const rows = readdirSync(folder).flatMap((name) =>
      readFileSync(join(folder, name), 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line)),
    );
    rmSync(folder, { recursive: true, force: true });
    if (rows.length === 0) return;
    rows.sort((a, b) => b.ms - a.ms);
    const all = process.env.SWITCHYARD_TEST_DURATIONS_ALL === '1';
    const total = rows.reduce((sum, row) => sum + row.ms, 0);
    const cpu = rows.reduce((sum, row) => sum + row.cpu, 0);
    process.stdout.write(`\n  file durations, slowest first (${rows.length} files, ${(total / 1000).toFixed(0)} s of worker time, ${cpu.toFixed(0)} s of CPU with the processes they started${all ? '' : `; the ${SHOWN} slowest`}):\n`);
    process.stdout.write(`     wall      cpu  file\n`);
    for (const row of all ? rows : rows.slice(0, SHOWN)) process.stdout.write(`  ${(row.ms / 1000).toFixed(1).padStart(6)} s ${row.cpu.toFixed(1).padStart(6)} s  ${row.file}\n`);
  });
}

/** CPU seconds used so far by this process and by its children that have ended (Linux; else 0). */
function cpuSeconds() {
  const own = process.cpuUsage();
  let children = 0;
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    children = (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    // not Linux: the children's share is not known
  }
  return (own.user + own.system) / 1e6 + children;
}

let started = 0;
let startedCpu = 0;
exports.mochaHooks = WORKER
  ? {
      beforeAll() {
        started = performance.now();
        startedCpu = cpuSeconds();
      },
      afterAll() {
        const root = this.test.parent;
        const file = root.suites[0]?.file ?? root.tests[0]?.file;
        if (!file || !process.env.SWITCHYARD_TEST_DURATIONS) return;
        const row = { file: relative(process.cwd(), file), ms: Math.round(performance.now() - started), cpu: cpuSeconds() - startedCpu };
        appendFileSync(join(process.env.SWITCHYARD_TEST_DURATIONS, `${process.pid}.jsonl`), JSON.stringify(row) + '\n');
      },
    }
  : {};
