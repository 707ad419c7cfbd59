// Debian's nginx (/usr/sbin/nginx) run by a test with the deploy kit's deploy/nginx.conf: the
// upstream block between its markers names the test's processes, it listens on a free loopback
// port, and its pid, logs and temp files go to a folder of its own. Nothing else of the kit's conf
// changes.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '@switchyard/app';
import { freePort } from './free-port.js';

export const NGINX = '/usr/sbin/nginx';

export interface Nginx {
  url: string;
  /** The conf nginx runs: the kit's with the test's upstreams, port and paths. */
  conf: string;
  stop(): Promise<void>;
}

/** The kit's conf with `servers` (host:port) in place of the compose services api1 and api2. */
export function kitConf(servers: string[], port: number, dir: string): string {
  const kit = readFileSync(join(PROJECT_ROOT, 'deploy', 'nginx.conf'), 'utf8');
  const begin = kit.indexOf('  # upstreams: begin');
  const end = kit.indexOf('  # upstreams: end');
  if (begin < 0 || end < 0) throw new Error('deploy/nginx.conf has no "# upstreams: begin" … "# upstreams: end" markers');
  const block = kit.slice(begin, end);
  const swapped = block.replace(/( *)server api1:8080;\n *server api2:8080;\n/g, (_, indent: string) => servers.map((s) => `${indent}server ${s};\n`).join(''));
  if (swapped === block) throw new Error('deploy/nginx.conf: the upstream block no longer names api1:8080 and api2:8080');
  let conf = kit.slice(0, begin) + swapped + kit.slice(end);
  if (!/\n    listen 80;\n/.test(conf)) throw new Error('deploy/nginx.conf: no "listen 80;" to move to a free port');
  conf = conf.replace('\n    listen 80;\n', `\n    listen 127.0.0.1:${port};\n`);
  // A user's nginx: its own temp folders and access log (Debian's defaults are root's).
  const paths = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${join(dir, t)};`).join('\n');
  return conf.replace('\nhttp {\n', `\nhttp {\n${paths}\n  access_log ${join(dir, 'access.log')};\n`);
}

/** Starts nginx in the foreground with the kit's conf in front of `servers`; resolves once it answers. */
export async function startNginx(servers: string[]): Promise<Nginx> {
  if (!existsSync(NGINX)) throw new Error(`${NGINX} is missing: install Debian's nginx-light (.ci/run does)`);
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-nginx-'));
  const port = await freePort();
  const conf = kitConf(servers, port, dir);
  writeFileSync(join(dir, 'nginx.conf'), conf);
  let stderr = '';
  const proc: ChildProcess = spawn(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', 'stderr', '-g', `daemon off; pid ${join(dir, 'nginx.pid')};`], { stdio: ['ignore', 'ignore', 'pipe'] });
  proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  const url = `http://127.0.0.1:${port}`;
  for (let t = 0; ; t++) {
    if (proc.exitCode !== null) throw new Error(`nginx exited with ${proc.exitCode}\n${stderr}`);
    try {
      await fetch(`${url}/healthz`);
      break;
    } catch {
      if (t > 100) throw new Error(`nginx did not answer on ${url}\n${stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return {
    url,
    conf,
    async stop() {
      if (proc.exitCode === null) {
        proc.kill('SIGQUIT');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
