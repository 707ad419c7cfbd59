// Moves SQLite's WAL checkpoints off the write path. By default the connection that commits also
// checkpoints every 1000 pages, and under synchronous=NORMAL a checkpoint is where the fsync
// happens, so every few hundred deliveries one commit waits for the disk. Here the writer never
// checkpoints (wal_autocheckpoint = 0); a second connection runs PASSIVE checkpoints on a timer,
// which copy committed pages into the database file without blocking the writer. Durability is
// unchanged: a commit is in the WAL before it is answered, and SQLite replays the WAL on open.
import sqlite3 from 'sqlite3';

export interface Checkpointer {
  /** A last checkpoint that also truncates the WAL, then the connection closes. */
  close(): Promise<void>;
}

const run = (db: sqlite3.Database, sql: string): Promise<void> =>
  new Promise((resolve, reject) => db.run(sql, (err) => (err ? reject(err) : resolve())));

export async function startCheckpointer(filename: string, intervalMs = 500): Promise<Checkpointer> {
  const db = await new Promise<sqlite3.Database>((resolve, reject) => {
    const opened = new sqlite3.Database(filename, (err) => (err ? reject(err) : resolve(opened)));
  });
  await run(db, 'PRAGMA busy_timeout = 5000');
  let running: Promise<void> | null = null;
  const checkpoint = (mode: 'PASSIVE' | 'TRUNCATE') => {
    // A failed passive checkpoint (the writer is busy) is simply retried on the next tick.
    running ??= run(db, `PRAGMA wal_checkpoint(${mode})`).catch(() => undefined).finally(() => (running = null));
    return running;
  };
  const timer = setInterval(() => void checkpoint('PASSIVE'), intervalMs);
  timer.unref();
  return {
    async close() {
      clearInterval(timer);
      await running;
      await checkpoint('TRUNCATE');
      await new Promise<void>((resolve, reject) => db.close((err) => (err ? reject(err) : resolve())));
    },
  };
}
