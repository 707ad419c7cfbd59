// Imported servers' states shared by every process on one PostgreSQL database (migration 028):
// a refresh stores its state in a row and sends NOTIFY in the same transaction, so a process
// that hears it reads a committed row. Each process listens on one connection of its own, outside
// the pool; when that connection drops (the database restarted), it connects again and then says
// that anything may have been missed.
import type { Knex } from 'knex';
import type { ImportedServerState, ImportedStateChannel, VersionedServerState } from '@switchyard/core';

/** NOTIFY's channel; the payload is the server's name. */
export const IMPORTS_CHANNEL = 'switchyard_imported_tools';

interface Row {
  server: string;
  version: number | string;
  address: string;
  listing: string;
  served: string;
  held: string;
  omitted: number | string;
  refreshed_at: string;
}

/** The part of node-postgres's client this needs (knex hands it over untyped). */
interface ListeningConnection {
  query(sql: string): Promise<unknown>;
  on(event: 'notification', listener: (message: { channel: string; payload?: string }) => void): void;
  on(event: 'end', listener: () => void): void;
  end(): Promise<void>;
}

export interface ChannelOptions {
  /** Told of each failed attempt to listen again (the attempts go on). */
  onError?: (error: Error) => void;
  /** Waits between attempts to listen again, doubling up to the last. */
  retryMs?: { first: number; max: number };
}

export class KnexImportedStateChannel implements ImportedStateChannel {
  constructor(
    private readonly knex: Knex,
    private readonly options: ChannelOptions = {},
  ) {}

  async publish(state: ImportedServerState): Promise<number> {
    return this.knex.transaction(async (trx) => {
      const values = { address: state.address, listing: JSON.stringify(state.listing), served: JSON.stringify(state.served), held: JSON.stringify(state.held), omitted: state.omitted, refreshed_at: state.refreshed_at };
      const [row] = (await trx('imported_server_states')
        .insert({ server: state.server, version: 1, ...values })
        .onConflict('server')
        .merge({ ...values, version: trx.raw('imported_server_states.version + 1') })
        .returning('version')) as Array<{ version: number | string }>;
      await trx.raw('SELECT pg_notify(?, ?)', [IMPORTS_CHANNEL, state.server]);
      return Number(row!.version);
    });
  }

  async latest(server: string): Promise<VersionedServerState | null> {
    const row = (await this.knex('imported_server_states').where({ server }).first()) as Row | undefined;
    if (!row) return null;
    return {
      server: row.server,
      version: Number(row.version),
      address: row.address,
      listing: JSON.parse(row.listing) as VersionedServerState['listing'],
      served: JSON.parse(row.served) as string[],
      held: JSON.parse(row.held) as VersionedServerState['held'],
      omitted: Number(row.omitted),
      refreshed_at: row.refreshed_at,
    };
  }

  async listen(heard: (server: string | null) => void): Promise<{ close(): Promise<void> }> {
    const { first, max } = this.options.retryMs ?? { first: 250, max: 5000 };
    let connection: ListeningConnection | undefined;
    let closed = false;
    let retry: ReturnType<typeof setTimeout> | undefined;

    const connect = async (): Promise<void> => {
      const c = (await this.knex.client.acquireRawConnection()) as ListeningConnection;
      c.on('notification', (message) => {
        if (message.channel === IMPORTS_CHANNEL && message.payload) heard(message.payload);
      });
      c.on('end', () => {
        if (connection !== c || closed) return;
        connection = undefined;
        reconnect(first);
      });
      try {
        await c.query(`LISTEN ${IMPORTS_CHANNEL}`);
      } catch (err) {
        await c.end().catch(() => {});
        throw err;
      }
      if (closed) {
        await c.end().catch(() => {});
        return;
      }
      connection = c;
    };

    const reconnect = (waitMs: number): void => {
      retry = setTimeout(() => {
        retry = undefined;
        if (closed) return;
        connect().then(
          // Publications sent while nobody listened are lost: every server may have changed.
          () => !closed && heard(null),
          (err: Error) => {
            this.options.onError?.(err);
            reconnect(Math.min(waitMs * 2, max));
          },
        );
      }, waitMs);
      retry.unref();
    };

    await connect();
    return {
      close: async () => {
        closed = true;
        if (retry) clearTimeout(retry);
        const c = connection;
        connection = undefined;
        await c?.end().catch(() => {});
      },
    };
  }
}
