// A fleet of service processes on one database, each named and of one role (api or worker), that a
// fault test kills with SIGKILL and starts again by name; request loops ask it for an api process
// that is up now.
import { startServiceProcess, startWorkerProcess, type Child } from './processes.js';

export type FleetRole = 'api' | 'worker';

interface Member {
  role: FleetRole;
  child: Child | undefined;
  /** An api process's URL while it is up (each start takes a new port). */
  url: string | undefined;
}

export class Fleet {
  private readonly members = new Map<string, Member>();
  private turn = 0;
  /** SIGKILLs sent, per process name. */
  readonly kills = new Map<string, number>();

  /** `env` is every process's (database, config, key); each member is started with its role. */
  constructor(
    private readonly env: NodeJS.ProcessEnv,
    roles: Record<string, FleetRole>,
  ) {
    for (const [name, role] of Object.entries(roles)) this.members.set(name, { role, child: undefined, url: undefined });
  }

  names(): string[] {
    return [...this.members.keys()];
  }

  private member(name: string): Member {
    const m = this.members.get(name);
    if (!m) throw new Error(`no process named ${name} in the fleet`);
    return m;
  }

  /** Starts the named process and resolves once it is ready (listening, or working for a worker). */
  async start(name: string): Promise<void> {
    const m = this.member(name);
    if (m.child) throw new Error(`${name} is running already`);
    if (m.role === 'worker') {
      m.child = await startWorkerProcess(this.env);
    } else {
      const { child, url } = await startServiceProcess({ ...this.env, SWITCHYARD_ROLE: 'api' });
      m.child = child;
      m.url = url;
    }
  }

  /** SIGKILL: no shutdown hook runs; resolves once the process has exited. */
  async kill(name: string): Promise<void> {
    const m = this.member(name);
    const child = m.child;
    m.url = undefined;
    m.child = undefined;
    if (!child) return;
    this.kills.set(name, (this.kills.get(name) ?? 0) + 1);
    await child.kill();
  }

  /** The URL of an api process that is up, taking them in turn; undefined while none is. */
  apiUrl(): string | undefined {
    const up = [...this.members.values()].filter((m) => m.role === 'api' && m.url).map((m) => m.url!);
    return up.length ? up[this.turn++ % up.length] : undefined;
  }

  /** SIGTERM to every process still running (SIGKILL after 5 s), all at once. */
  async stopAll(): Promise<void> {
    await Promise.all(
      [...this.members.values()].map(async (m) => {
        const child = m.child;
        m.child = undefined;
        m.url = undefined;
        await child?.stop();
      }),
    );
  }
}
