// Moves SQLite's WAL checkpoints off the write path. By default the connection that commits also
// checkpoints every 1000 pages, and under synchronous=NORMAL a checkpoint is where the fsync
// happens, so every few hundred deliveries one commit waits for the disk. Here the writer never
// checkpoints on its own (wal_autocheckpoint = 0); a second connection runs PASSIVE checkpoints on
// a timer, which copy committed pages into the database file without blocking the writer.
// Durability is unchanged: a commit is in the WAL before it is answered, and SQLite replays the
// WAL on open.
//
// Keeping the WAL bounded. SQLite starts the WAL over when a write begins while every page in it is
// checkpointed and no reader is using it. Under steady writes some commit always lands while the
// second connection checkpoints, so that never happens and the WAL grows for as long as the traffic
// lasts (600 MB in two minutes of the ingest benchmark). So once a pass finds the WAL at
// `restartFrames` pages or more, all of them copied, the writer runs one PASSIVE checkpoint itself,
// between two of its transactions (`checkpointOnWriter`): it copies only the pages committed since
// the pass, and nothing can commit in between, so its next write starts the WAL over. Being the
// writer's own and PASSIVE, it never waits for a lock; if a reader still holds an older snapshot,
// the WAL carries on and the next tick tries again.
import sqlite3 from 'sqlite3';

/** WAL pages at which the writer is asked to let the WAL start over: 64 MiB at 4 KiB pages. */
export const WAL_RESTART_FRAMES = 16_384;

export interface CheckpointerOptions {
  /** Between passive checkpoints (500 ms). */
  intervalMs?: number;
  /** WAL pages from which the WAL is started over (WAL_RESTART_FRAMES). */
  restartFrames?: number;
  /** Runs `PRAGMA wal_checkpoint(PASSIVE)` on the writing connection, between its transactions. */
  checkpointOnWriter: () => Promise<unknown>;
}

export interface Checkpointer {
  /** One pass now, as the timer runs it. */
  checkpoint(): Promise<void>;
  /** Passes that asked the writer to let the WAL start over. */
  readonly restarts: number;
  /** A last checkpoint that also truncates the WAL, then the connection closes. */
  close(): Promise<void>;
}

/** A wal_checkpoint answer: `log` pages in the WAL, `checkpointed` of them copied (-1 when busy). */
interface CheckpointResult {
  busy: number;
  log: number;
  checkpointed: number;
}

const checkpointWal = (db: sqlite3.Database, mode: 'PASSIVE' | 'TRUNCATE'): Promise<CheckpointResult> =>
  new Promise((resolve, reject) => db.get(`PRAGMA wal_checkpoint(${mode})`, (err: Error | null, row: CheckpointResult) => (err ? reject(err) : resolve(row))));

export async function startCheckpointer(filename: string, { intervalMs = 500, restartFrames = WAL_RESTART_FRAMES, checkpointOnWriter }: CheckpointerOptions): Promise<Checkpointer> {
  const db = await new Promise<sqlite3.Database>((resolve, reject) => {
    const opened = new sqlite3.Database(filename, (err) => (err ? reject(err) : resolve(opened)));
  });
  await new Promise<void>((resolve, reject) => db.run('PRAGMA busy_timeout = 5000', (err) => (err ? reject(err) : resolve())));
  let restarts = 0;
  let running: Promise<void> | null = null;
  const pass = async () => {
    const { log, checkpointed } = await checkpointWal(db, 'PASSIVE');
    if (log >= restartFrames && checkpointed === log) {
      restarts += 1;
      await checkpointOnWriter();
    }
  };
  // A failed checkpoint (a reader or the writer is busy) is simply tried again on the next tick.
  const checkpoint = (run: () => Promise<unknown>) =>
    (running ??= run()
      .then(() => undefined, () => undefined)
      .finally(() => (running = null)));
  const timer = setInterval(() => void checkpoint(pass), intervalMs);
  timer.unref();
  return {
    checkpoint: () => checkpoint(pass),
    get restarts() {
      return restarts;
    },
    async close() {
      clearInterval(timer);
      await running;
      await checkpoint(() => checkpointWal(db, 'TRUNCATE'));
      await new Promise<void>((resolve, reject) => db.close((err) => (err ? reject(err) : resolve())));
    },
  };
}
