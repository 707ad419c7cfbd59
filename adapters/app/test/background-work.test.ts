// The lifecycle of background work: tasks start in order and stop in reverse, each stop awaited; a
// stop that fails is logged and the others still stop; the role decides what a process runs.
import { expect } from 'chai';
import { BackgroundWork, roleRuns, tasksFor, type BackgroundTask } from '../src/background-work.js';
import { createLogger } from '../src/logger.js';

function recordingTask(name: string, events: string[], options: { failStop?: boolean; slowStopMs?: number } = {}): BackgroundTask {
  return {
    name,
    start: () => void events.push(`start ${name}`),
    stop: async () => {
      if (options.slowStopMs) await new Promise((r) => setTimeout(r, options.slowStopMs));
      events.push(`stop ${name}`);
      if (options.failStop) throw new Error(`${name} would not stop`);
    },
  };
}

describe('adapter app: background work', () => {
  it('starts tasks in order, once, and stops them in reverse, waiting for each', async () => {
    const events: string[] = [];
    const work = new BackgroundWork([recordingTask('integrator', events, { slowStopMs: 30 }), recordingTask('forwarder', events, { slowStopMs: 30 })], createLogger('silent'));
    expect(work.names).to.deep.equal(['integrator', 'forwarder']);
    await Promise.all([work.start(), work.start()]);
    await work.stop();
    expect(events).to.deep.equal(['start integrator', 'start forwarder', 'stop forwarder', 'stop integrator']);
    await work.stop();
    expect(events).to.have.length(4);
  });

  it('logs a stop that fails and still stops the rest', async () => {
    const events: string[] = [];
    const lines: string[] = [];
    const logger = createLogger('info', { destination: { write: (line: string) => void lines.push(line) } });
    const work = new BackgroundWork([recordingTask('integrator', events), recordingTask('forwarder', events, { failStop: true })], logger);
    await work.start();
    await work.stop();
    expect(events).to.deep.equal(['start integrator', 'start forwarder', 'stop forwarder', 'stop integrator']);
    const logged = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(logged).to.have.length(1);
    expect(logged[0]).to.include({ level: 'error', message: 'background work did not stop cleanly', task: 'forwarder', error: 'forwarder would not stop' });
  });

  it('runs HTTP in api and all, background work in worker and all', () => {
    expect(roleRuns('all')).to.deep.equal({ http: true, background: true });
    expect(roleRuns('api')).to.deep.equal({ http: true, background: false });
    expect(roleRuns('worker')).to.deep.equal({ http: false, background: true });
  });

  it('a process runs the tasks its role runs, in their order: every role those marked everyRole, none a task that is not enabled', () => {
    const events: string[] = [];
    const tasks: BackgroundTask[] = [
      { ...recordingTask('run-sweeper', events), everyRole: true },
      { ...recordingTask('upstream-listener', events), everyRole: true, enabled: false },
      recordingTask('integrator', events),
      { ...recordingTask('witnesses', events), enabled: false },
      recordingTask('forwarder', events),
    ];
    expect(tasksFor('all', tasks).map((t) => t.name)).to.deep.equal(['run-sweeper', 'integrator', 'forwarder']);
    expect(tasksFor('worker', tasks).map((t) => t.name)).to.deep.equal(['run-sweeper', 'integrator', 'forwarder']);
    expect(tasksFor('api', tasks).map((t) => t.name)).to.deep.equal(['run-sweeper']);
    expect(tasksFor('api', [{ ...tasks[1]!, enabled: true }]).map((t) => t.name)).to.deep.equal(['upstream-listener']);
  });
});
