// The imported servers' background work. The refresher (worker and `all` processes) lists a server
// again when it says its tools changed; every process hears the others' refreshes and serves what
// they found, so an api process never lists a server on its own after its start.
import type { BackgroundTask } from './background-work.js';
import type { ConfiguredUpstreamImports } from '@switchyard/core';

export function upstreamRefresherTask(imports: ConfiguredUpstreamImports): BackgroundTask {
  let stop: (() => void) | undefined;
  return {
    name: 'upstream-refresher',
    start: () => {
      stop = imports.listenForListChanges();
    },
    stop: async () => {
      stop?.();
      stop = undefined;
    },
  };
}

export function upstreamListenerTask(imports: ConfiguredUpstreamImports): BackgroundTask {
  let listening: { close(): Promise<void> } | undefined;
  return {
    name: 'upstream-listener',
    everyRole: true,
    // With one process on the database (SQLite) there is no other process to hear.
    enabled: imports.shared,
    start: async () => {
      listening = await imports.listenToOtherProcesses();
      // A refresh published while this process started (before it listened) is served now.
      await imports.heard(null);
    },
    stop: async () => {
      await listening?.close();
      listening = undefined;
    },
  };
}
