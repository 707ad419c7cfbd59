// Writes a benchmark's report to bench-results/<name>-<engine>.json and prints it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '@switchyard/app';

export function writeReport(name: string, report: { engine: string }): void {
  const outDir = join(PROJECT_ROOT, 'bench-results');
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, `${name}-${report.engine}.json`), JSON.stringify(report, null, 2) + '\n');
  console.log(JSON.stringify(report, null, 2));
}
