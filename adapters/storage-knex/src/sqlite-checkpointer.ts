// Moves SQLite's WAL checkpoints off the write path. By default the connection that commits also
// checkpoints every 1000 pages, and under synchronous=NORMAL a checkpoint is where the fsync
// happens, so every few hundred deliveries one commit waits for the disk. Here the writer never
// checkpoints (wal_autocheckpoint = 0); a second connection runs PASSIVE checkpoints on a timer,
// which copy committed pages into the database file without blocking the writer. Durability is
// unchanged: a commit is in the WAL before it is answered, and SQLite replays the WAL on open.
//
// A PASSIVE checkpoint never starts the WAL over: SQLite does that when a writer begins while the
// whole WAL is checkpointed. Under steady writes some commit always lands during the checkpoint,
// so the WAL never is, and it grows for as long as the traffic lasts (600 MB in two minutes of the
// ingest benchmark). So once the WAL holds `restartFrames` pages, the checkpointer asks for a
// RESTART: it copies the few pages committed since the passive pass, holding writers back for
// that moment (they wait, with busy_timeout), and the next commit writes the WAL from its start.
import sqlite3 from 'sqlite3';

/** WAL pages at which the checkpointer starts the WAL over: 64 MiB at SQLite's default 4 KiB pages. */
export const WAL_RESTART_FRAMES = 16_384;

export interface CheckpointerOptions {
  /** Between passive checkpoints. */
  intervalMs?: number;
  /** WAL pages at which a checkpoint restarts the WAL (WAL_RESTART_FRAMES). */
  restartFrames?: number;
}

export interface Checkpointer {
  /** A last checkpoint that also truncates the WAL, then the connection closes. */
  close(): Promise<void>;
}

/** A wal_checkpoint answer: `log` pages in the WAL, `checkpointed` of them in the database file. */
interface CheckpointResult {
  busy: number;
  log: number;
  checkpointed: number;
}

const checkpointWal = (db: sqlite3.Database, mode: 'PASSIVE' | 'RESTART' | 'TRUNCATE'): Promise<CheckpointResult> =>
  new Promise((resolve, reject) => db.get(`PRAGMA wal_checkpoint(${mode})`, (err: Error | null, row: CheckpointResult) => (err ? reject(err) : resolve(row))));

export async function startCheckpointer(filename: string, { intervalMs = 500, restartFrames = WAL_RESTART_FRAMES }: CheckpointerOptions = {}): Promise<Checkpointer> {
  const db = await new Promise<sqlite3.Database>((resolve, reject) => {
    const opened = new sqlite3.Database(filename, (err) => (err ? reject(err) : resolve(opened)));
  });
  await new Promise<void>((resolve, reject) => db.run('PRAGMA busy_timeout = 5000', (err) => (err ? reject(err) : resolve())));
  let running: Promise<void> | null = null;
  const checkpoint = (pass: () => Promise<unknown>) => {
    // A failed checkpoint (the writer or a reader is busy) is simply tried again on the next tick.
    running ??= pass()
      .then(() => undefined, () => undefined)
      .finally(() => (running = null));
    return running;
  };
  const tick = async () => {
    const { log } = await checkpointWal(db, 'PASSIVE');
    if (log >= restartFrames) await checkpointWal(db, 'RESTART');
  };
  const timer = setInterval(() => void checkpoint(tick), intervalMs);
  timer.unref();
  return {
    async close() {
      clearInterval(timer);
      await running;
      await checkpoint(() => checkpointWal(db, 'TRUNCATE'));
      await new Promise<void>((resolve, reject) => db.close((err) => (err ? reject(err) : resolve())));
    },
  };
}
