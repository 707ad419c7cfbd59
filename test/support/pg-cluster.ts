// A throwaway PostgreSQL cluster for fault tests: initdb under a temp folder, pg_ctl on a free port,
// stopped and started again by the test, removed at the end. Never the machine's own server. initdb
// and postgres refuse to run as root, so as root they run as the postgres user (runuser).
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';

export interface PgCluster {
  /** A database URL for the cluster's `postgres` database. */
  url: string;
  port: number;
  /** `fast` (the default) lets sessions end; `immediate` kills the server without a shutdown checkpoint, like a crash (recovery runs at the next start). */
  stop(mode?: 'fast' | 'immediate'): void;
  start(): void;
  /** Stops the cluster and removes its folder. */
  remove(): void;
}


function userIds(name: string): { uid: number; gid: number } {
  const id = (flag: string) => Number(execFileSync('id', [flag, name]).toString().trim());
  return { uid: id('-u'), gid: id('-g') };
}

/** Runs a PostgreSQL tool, as the postgres user when this process is root. */
function pg(tool: string, args: string[]): void {
  const asRoot = process.getuid?.() === 0;
  const [command, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', tool, ...args]] : [tool, args];
  execFileSync(command, argv, { stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
}

export async function startPgCluster(): Promise<PgCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-pg-'));
  const data = join(dir, 'data');
  if (process.getuid?.() === 0) {
    const { uid, gid } = userIds('postgres');
    chownSync(dir, uid, gid);
  }
  chmodSync(dir, 0o700);
  const port = await freePort();
  pg('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
  const cluster: PgCluster = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start: () => pg('pg_ctl', ['-D', data, '-w', '-t', '60', '-l', join(dir, 'log'), '-o', `-p ${port} -c listen_addresses=127.0.0.1 -k ${dir} -c fsync=off`, 'start']),
    stop: (mode = 'fast') => pg('pg_ctl', ['-D', data, '-w', '-t', '60', '-m', mode, 'stop']),
    remove: () => {
      try {
        cluster.stop();
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  cluster.start();
  return cluster;
}
