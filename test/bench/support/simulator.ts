// One plugin's upstream simulator in its own process, for benchmarks that call it directly and
// through the service.
import { spawnTs } from '../../support/processes.js';

export const spawnSimulator = (plugin: string) =>
  spawnTs('test/bench/support/simulator-main.ts', [plugin], {}, (line) => {
    try {
      return (JSON.parse(line) as { url?: string }).url;
    } catch {
      return undefined;
    }
  });
