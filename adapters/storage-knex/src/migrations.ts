// The one migration set for both engines, kept in code so a build carries its schema with it.
// Add a migration at the end; never edit one that has shipped.
import { hash } from 'node:crypto';
import type { Knex } from 'knex';
import { hashChildren } from '@switchyard/core';
import { FIRST_DELIVERY, dialectFor, type Dialect } from './dialect.js';
import { chunks } from './sql-batches.js';
import { ERASABLE_TABLES, allowErasureOnly, changingColumnsOf, refuseEveryUpdate } from './erasure-triggers.js';

/**
 * The ledger tables migration 005 put on the Merkle log: table, leaf kind, id column. Later
 * migrations log token_uses and approvals too; the live list of all of them is LEDGER_SOURCES.
 */
export const LOGGED_TABLES = [
  ['invocations', 'invocation', 'id'],
  ['deliveries', 'delivery', 'id'],
  ['webhook_actions', 'action', 'delivery'],
] as const;

/**
 * Every table whose rows are ledger entries, as it stood at migration 008: kind, table, id column.
 * (The live list is LEDGER_SOURCES; a migration keeps the one it was written against.)
 */
const SOURCES_AT_008 = [...LOGGED_TABLES, ['token_uses', 'token_use', 'id'] as const, ['approvals', 'approval', 'id'] as const];

/** 008: sets `entry_seq` on every row of `target` (the queue or the leaves) from its entry's table. */
async function fillEntrySeq(knex: Knex, target: 'ledger_queue' | 'ledger_leaves'): Promise<void> {
  for (const [table, kind, column] of SOURCES_AT_008) {
    await knex.raw(`UPDATE ${target} SET entry_seq = (SELECT seq FROM ${table} WHERE ${column} = ${target}.entry_id) WHERE kind = ?`, [kind]);
  }
}

/**
 * Stores the subtree at every odd level that has both children (leaf hashes for level 1, stored
 * even-level subtrees above), for logs written while only even levels were kept. Pages of children
 * start at even indexes, so each page holds whole pairs.
 */
async function restoreOddLevels(knex: Knex): Promise<void> {
  const PAGE = 10_000;
  for (let level = 1; ; level += 2) {
    let pairs = 0;
    for (let from = 0; ; from += PAGE) {
      const children = (level === 1
        ? await knex('ledger_leaves').select('idx', { hash: 'leaf_hash' }).where('idx', '>=', from).orderBy('idx').limit(PAGE)
        : await knex('ledger_nodes').select('idx', 'hash').where({ level: level - 1 }).andWhere('idx', '>=', from).orderBy('idx').limit(PAGE)) as Array<{ idx: number | string; hash: string }>;
      const parents: Array<{ level: number; idx: number; hash: string }> = [];
      for (let i = 0; i + 1 < children.length; i += 2) {
        const [left, right] = [children[i]!, children[i + 1]!];
        const parent = Number(left.idx) / 2;
        parents.push({ level, idx: parent, hash: Buffer.from(hashChildren(Buffer.from(left.hash, 'hex'), Buffer.from(right.hash, 'hex'))).toString('hex') });
      }
      for (const part of chunks(parents)) await knex('ledger_nodes').insert(part).onConflict(['level', 'idx']).ignore();
      pairs += parents.length;
      if (children.length < PAGE) break;
    }
    if (pairs === 0) return;
  }
}

/** 010: the deliveries columns but the body, in order (as migrations 002, 003 and 009 made them). */
const DELIVERY_COLUMNS_010 = [
  'id', 'hook_id', 'received_at', 'method', 'path', 'query', 'headers', 'body_size', 'client_address', 'delivery_id',
  'delivery_id_rule', 'outcome', 'refusal', 'action', 'duplicate_of', 'signature', 'request_id',
];

/**
 * 010 where a row keeps large values inline (SQLite): the deliveries table again, with the body as
 * its last column. SQLite stores a row's columns in order and a large body in a chain of overflow
 * pages, so reading any column after the body walked the whole chain: listing 50 deliveries of 10 MiB read 500 MB to show their sizes.
 * With the body last, a listing reads only the small columns (and length(body) from the row header).
 * Columns added to deliveries from now on must keep it last (rebuild, or keep them elsewhere).
 */
async function rebuildDeliveriesBodyLast(knex: Knex, dialect: Dialect): Promise<void> {
  await knex.schema.createTable('deliveries_010', (t) => {
    t.bigIncrements('seq').primary();
    t.string('id', 40).notNullable();
    t.string('hook_id', 16).notNullable();
    t.string('received_at', 40).notNullable();
    t.string('method', 16).notNullable();
    t.text('path').notNullable();
    t.text('query').notNullable();
    t.text('headers').notNullable();
    t.integer('body_size').notNullable();
    t.string('client_address', 64).nullable();
    t.string('delivery_id', 200).nullable();
    t.string('delivery_id_rule', 240).nullable();
    t.string('outcome', 16).notNullable();
    t.text('refusal').nullable();
    t.string('action', 128).nullable();
    t.string('duplicate_of', 40).nullable();
    t.string('signature', 16).nullable();
    t.string('request_id', 128).nullable();
    t.string('body_sha256', 64).nullable();
    t.binary('body').nullable();
  });
  const columns = ['seq', ...DELIVERY_COLUMNS_010, 'body'].join(', ');
  await knex.raw(`INSERT INTO deliveries_010 (${columns}) SELECT ${columns} FROM deliveries ORDER BY seq`);
  // Its indexes and triggers go with it (dropping a table fires no DELETE trigger).
  await knex.schema.dropTable('deliveries');
  await knex.raw('ALTER TABLE deliveries_010 RENAME TO deliveries');
  await knex.raw('CREATE UNIQUE INDEX deliveries_id_unique ON deliveries (id)');
  await knex.raw('CREATE INDEX deliveries_hook_id_seq_index ON deliveries (hook_id, seq)');
  await knex.raw(`CREATE UNIQUE INDEX deliveries_first_by_id ON deliveries (hook_id, delivery_id) WHERE ${FIRST_DELIVERY}`);
  await fillBodyHashes(knex, dialect);
  for (const sql of dialect.appendOnly('deliveries')) await knex.raw(sql);
  for (const sql of dialect.enqueueWithSeqForLog('deliveries', 'delivery', 'id')) await knex.raw(sql);
}

/**
 * 010: sets body_sha256 on every stored delivery body. An engine that hashes in SQL does it in one
 * UPDATE; otherwise the bodies are read in groups of at most 16 MiB, so a large ledger is never held whole.
 */
async function fillBodyHashes(knex: Knex, dialect: Dialect): Promise<void> {
  const inSql = dialect.sha256Hex('body');
  if (inSql !== null) {
    await knex.raw(`UPDATE deliveries SET body_sha256 = ${inSql} WHERE body IS NOT NULL`);
    return;
  }
  const GROUP_BYTES = 16 * 1024 * 1024;
  for (let after = 0; ; ) {
    const sizes = (await knex('deliveries').select('seq', knex.raw('length(body) AS n')).whereNotNull('body').andWhere('seq', '>', after).orderBy('seq').limit(1000)) as Array<{ seq: number; n: number }>;
    if (sizes.length === 0) return;
    for (let i = 0; i < sizes.length; ) {
      const group: number[] = [];
      for (let bytes = 0; i < sizes.length && (group.length === 0 || bytes + sizes[i]!.n <= GROUP_BYTES); i++) {
        group.push(sizes[i]!.seq);
        bytes += sizes[i]!.n;
      }
      for (const row of (await knex('deliveries').select('seq', 'body').whereIn('seq', group)) as Array<{ seq: number; body: Buffer }>) {
        await knex('deliveries').where({ seq: row.seq }).update({ body_sha256: hash('sha256', row.body, 'hex') });
      }
    }
    after = sizes[sizes.length - 1]!.seq;
  }
}

interface Migration {
  name: string;
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

const migrations: Migration[] = [
  {
    name: '001_invocations_and_api_keys',
    async up(knex) {
      await knex.schema.createTable('invocations', (t) => {
        // seq is the ledger position: append order, and the paging cursor.
        t.bigIncrements('seq').primary();
        t.string('id', 40).notNullable().unique();
        t.string('key', 128).notNullable();
        t.string('actor', 200).notNullable();
        t.string('fingerprint', 100).nullable();
        t.string('status', 24).notNullable();
        t.boolean('ok').notNullable();
        t.boolean('ran').notNullable();
        t.string('repairs', 40).nullable().index();
        t.string('replays', 40).nullable().index();
        t.string('source', 200).notNullable();
        t.string('created_at', 40).notNullable();
        t.integer('duration_ms').notNullable();
        // The whole record as written; the columns above are for queries.
        t.text('record').notNullable();
        t.index(['key', 'seq']);
      });
      for (const sql of dialectFor(knex).appendOnly('invocations')) await knex.raw(sql);

      await knex.schema.createTable('api_keys', (t) => {
        t.increments('id').primary();
        // SHA-256 hex of the key; the key itself is never stored.
        t.string('key_hash', 64).notNullable().unique();
        t.string('label', 200).notNullable();
        t.string('created_at', 40).notNullable();
      });
    },
    async down(knex) {
      await knex.schema.dropTable('api_keys');
      for (const sql of dialectFor(knex).dropAppendOnly('invocations')) await knex.raw(sql);
      await knex.schema.dropTable('invocations');
    },
  },
  {
    name: '002_webhooks_and_deliveries',
    async up(knex) {
      const dialect = dialectFor(knex);
      // Webhook settings change (name, on/off, id path); their deliveries never do.
      await knex.schema.createTable('webhooks', (t) => {
        t.string('id', 16).primary();
        t.string('name', 200).notNullable();
        t.boolean('on').notNullable();
        t.string('delivery_id_path', 220).nullable();
        t.string('created_at', 40).notNullable();
        t.string('updated_at', 40).notNullable();
      });
      await knex.schema.createTable('deliveries', (t) => {
        t.bigIncrements('seq').primary();
        t.string('id', 40).notNullable().unique();
        t.string('hook_id', 16).notNullable();
        t.string('received_at', 40).notNullable();
        t.string('method', 16).notNullable();
        t.text('path').notNullable();
        t.text('query').notNullable();
        // [name, value] pairs exactly as received.
        t.text('headers').notNullable();
        t.binary('body').nullable();
        t.integer('body_size').notNullable();
        t.string('client_address', 64).nullable();
        t.string('delivery_id', 200).nullable();
        t.string('delivery_id_rule', 240).nullable();
        t.string('outcome', 16).notNullable();
        t.text('refusal').nullable();
        t.string('action', 128).nullable();
        // The first delivery with the same id on this webhook, when this one is a duplicate.
        t.string('duplicate_of', 40).nullable();
        t.index(['hook_id', 'seq']);
      });
      // One row per (webhook, delivery id): the unique index decides which delivery was first.
      await knex.schema.createTable('delivery_ids', (t) => {
        t.string('hook_id', 16).notNullable();
        t.string('delivery_id', 200).notNullable();
        t.string('first_entry', 40).notNullable();
        t.primary(['hook_id', 'delivery_id']);
      });
      // The record an action address adds after the delivery: which invocation ran, and the answer.
      await knex.schema.createTable('webhook_actions', (t) => {
        t.bigIncrements('seq').primary();
        t.string('delivery', 40).notNullable().unique();
        t.string('action', 128).notNullable();
        t.string('invocation', 40).notNullable();
        t.boolean('ok').notNullable();
        t.string('status', 24).notNullable();
        t.text('answer').notNullable();
        t.string('created_at', 40).notNullable();
      });
      for (const table of ['deliveries', 'delivery_ids', 'webhook_actions']) for (const sql of dialect.appendOnly(table)) await knex.raw(sql);
    },
    async down(knex) {
      const dialect = dialectFor(knex);
      for (const table of ['deliveries', 'delivery_ids', 'webhook_actions']) for (const sql of dialect.dropAppendOnly(table)) await knex.raw(sql);
      for (const table of ['webhook_actions', 'delivery_ids', 'deliveries', 'webhooks']) await knex.schema.dropTable(table);
    },
  },
  {
    name: '003_webhook_signatures',
    async up(knex) {
      await knex.schema.alterTable('webhooks', (t) => {
        t.string('signature_scheme', 32).nullable();
        // The shared secret is needed in clear to compute HMACs; it is never returned by the API.
        t.text('signature_secret').nullable();
        t.string('signature_header', 100).nullable();
        t.boolean('require_signature').notNullable().defaultTo(false);
      });
      // Adding a nullable column is not an UPDATE of existing rows, so the ledger triggers allow it.
      await knex.schema.alterTable('deliveries', (t) => {
        t.string('signature', 16).nullable();
      });
    },
    async down(knex) {
      await knex.schema.alterTable('deliveries', (t) => t.dropColumn('signature'));
      await knex.schema.alterTable('webhooks', (t) => {
        t.dropColumn('signature_scheme');
        t.dropColumn('signature_secret');
        t.dropColumn('signature_header');
        t.dropColumn('require_signature');
      });
    },
  },
  {
    // Which delivery came first is now decided by a partial unique index on deliveries itself, so
    // an accepted delivery is one INSERT (one round trip, no transaction) instead of a claim in a
    // second table plus a read. delivery_ids held nothing the deliveries do not; it is dropped.
    name: '004_first_delivery_index',
    async up(knex) {
      await knex.raw(`CREATE UNIQUE INDEX deliveries_first_by_id ON deliveries (hook_id, delivery_id) WHERE ${FIRST_DELIVERY}`);
      for (const sql of dialectFor(knex).dropAppendOnly('delivery_ids')) await knex.raw(sql);
      await knex.schema.dropTable('delivery_ids');
    },
    async down(knex) {
      await knex.schema.createTable('delivery_ids', (t) => {
        t.string('hook_id', 16).notNullable();
        t.string('delivery_id', 200).notNullable();
        t.string('first_entry', 40).notNullable();
        t.primary(['hook_id', 'delivery_id']);
      });
      await knex.raw(`INSERT INTO delivery_ids (hook_id, delivery_id, first_entry) SELECT hook_id, delivery_id, id FROM deliveries WHERE ${FIRST_DELIVERY}`);
      for (const sql of dialectFor(knex).appendOnly('delivery_ids')) await knex.raw(sql);
      await knex.raw('DROP INDEX deliveries_first_by_id');
    },
  },
  {
    // The verifiable ledger: every entry becomes a leaf of an RFC 6962 tree. Entries are queued by
    // triggers in the transaction that inserts them (so none is missed, whatever order concurrent
    // transactions commit in); an integrator moves them from the queue into the tree. Complete
    // subtree hashes are stored, so a proof reads O(log n) rows and a restart rebuilds nothing.
    name: '005_verifiable_ledger',
    async up(knex) {
      const dialect = dialectFor(knex);
      await knex.schema.createTable('ledger_queue', (t) => {
        t.bigIncrements('seq').primary();
        t.string('kind', 16).notNullable();
        t.string('entry_id', 40).notNullable();
      });
      await knex.schema.createTable('ledger_leaves', (t) => {
        // The leaf's index in the tree (0-based).
        t.bigInteger('idx').primary();
        t.string('kind', 16).notNullable();
        t.string('entry_id', 40).notNullable();
        // The canonical JSON that was hashed, and its RFC 6962 leaf hash (hex).
        t.text('leaf').notNullable();
        t.string('leaf_hash', 64).notNullable();
        t.string('integrated_at', 40).notNullable();
        t.unique(['kind', 'entry_id']);
      });
      await knex.schema.createTable('ledger_nodes', (t) => {
        // The complete subtree of 2^level leaves starting at leaf idx · 2^level, for level ≥ 1
        // (level 0 is each leaf's hash, kept in ledger_leaves).
        t.integer('level').notNullable();
        t.bigInteger('idx').notNullable();
        t.string('hash', 64).notNullable();
        t.primary(['level', 'idx']);
      });
      await knex.schema.createTable('ledger_checkpoints', (t) => {
        t.bigInteger('size').primary();
        t.string('root', 64).notNullable();
        // The signed note (c2sp.org/tlog-checkpoint), whole.
        t.text('note').notNullable();
        t.string('created_at', 40).notNullable();
      });
      // Keys made at first start and shared by every process on the database (insert-once).
      await knex.schema.createTable('ledger_settings', (t) => {
        t.string('name', 64).primary();
        t.text('value').notNullable();
        t.string('created_at', 40).notNullable();
      });
      for (const table of ['ledger_leaves', 'ledger_nodes', 'ledger_checkpoints', 'ledger_settings']) for (const sql of dialect.appendOnly(table)) await knex.raw(sql);
      for (const [table, kind, column] of LOGGED_TABLES) {
        for (const sql of dialect.enqueueForLog(table, kind, column)) await knex.raw(sql);
        // What is already in the ledger joins the log in its own order.
        await knex.raw(`INSERT INTO ledger_queue (kind, entry_id) SELECT '${kind}', ${column} FROM ${table} ORDER BY seq`);
      }
    },
    async down(knex) {
      const dialect = dialectFor(knex);
      for (const [table] of LOGGED_TABLES) await knex.raw(dialect.dropEnqueueForLog(table));
      for (const table of ['ledger_leaves', 'ledger_nodes', 'ledger_checkpoints', 'ledger_settings']) for (const sql of dialect.dropAppendOnly(table)) await knex.raw(sql);
      for (const table of ['ledger_settings', 'ledger_checkpoints', 'ledger_nodes', 'ledger_leaves', 'ledger_queue']) await knex.schema.dropTable(table);
    },
  },
  {
    // Share-token uses: every use of a token is a ledger entry under its fingerprint (and a leaf of
    // the Merkle log); use slots make a uses= caveat exact under concurrency (one row per use, the
    // primary key refuses a second claim of the same slot).
    name: '006_token_uses',
    async up(knex) {
      const dialect = dialectFor(knex);
      await knex.schema.createTable('token_uses', (t) => {
        t.bigIncrements('seq').primary();
        t.string('id', 40).notNullable().unique();
        t.string('fingerprint', 40).notNullable();
        t.string('move', 200).notNullable();
        t.string('outcome', 16).notNullable();
        t.string('code', 40).nullable();
        t.text('route').notNullable();
        t.string('at', 40).notNullable();
        t.index(['fingerprint', 'seq']);
      });
      await knex.schema.createTable('token_use_slots', (t) => {
        t.string('fingerprint', 40).notNullable();
        t.integer('slot').notNullable();
        t.primary(['fingerprint', 'slot']);
      });
      for (const table of ['token_uses', 'token_use_slots']) for (const sql of dialect.appendOnly(table)) await knex.raw(sql);
      for (const sql of dialect.enqueueForLog('token_uses', 'token_use', 'id')) await knex.raw(sql);
    },
    async down(knex) {
      const dialect = dialectFor(knex);
      await knex.raw(dialect.dropEnqueueForLog('token_uses'));
      for (const table of ['token_uses', 'token_use_slots']) for (const sql of dialect.dropAppendOnly(table)) await knex.raw(sql);
      for (const table of ['token_use_slots', 'token_uses']) await knex.schema.dropTable(table);
    },
  },
  {
    // The owner's decisions on invocations awaiting approval: one per invocation (the unique key
    // makes "runs once" atomic), append-only and a leaf of the Merkle log.
    name: '007_approvals',
    async up(knex) {
      const dialect = dialectFor(knex);
      await knex.schema.createTable('approvals', (t) => {
        t.bigIncrements('seq').primary();
        t.string('id', 40).notNullable().unique();
        t.string('invocation', 40).notNullable().unique();
        t.string('decision', 16).notNullable();
        t.string('args_hash', 80).notNullable();
        t.string('decided_by', 200).notNullable();
        t.string('decided_at', 40).notNullable();
        t.string('run_invocation', 40).nullable();
      });
      await knex.schema.alterTable('invocations', (t) => t.index(['status', 'seq']));
      for (const sql of dialect.appendOnly('approvals')) await knex.raw(sql);
      for (const sql of dialect.enqueueForLog('approvals', 'approval', 'id')) await knex.raw(sql);
    },
    async down(knex) {
      const dialect = dialectFor(knex);
      await knex.raw(dialect.dropEnqueueForLog('approvals'));
      for (const sql of dialect.dropAppendOnly('approvals')) await knex.raw(sql);
      await knex.schema.alterTable('invocations', (t) => t.dropIndex(['status', 'seq']));
      await knex.schema.dropTable('approvals');
    },
  },
  {
    // Queued entries and leaves refer to their entry by (kind, seq) as well as by id. Entry ids are
    // random by design, so a unique index on (kind, entry_id) took each new leaf to a random page:
    // on SQLite that rewrote about one index page per leaf and made the leaf insert most of an
    // integration's cost, growing with the log. seq only grows, so the (kind, seq) index is
    // appended to at its end; the leaf builder reads entries by seq, the row's own key.
    name: '008_ledger_entry_positions',
    async up(knex) {
      const dialect = dialectFor(knex);
      await knex.schema.alterTable('ledger_queue', (t) => t.bigInteger('entry_seq').nullable());
      await knex.schema.alterTable('ledger_leaves', (t) => t.bigInteger('entry_seq').nullable());
      // The new triggers first: replacing one locks its table until this migration commits, so a
      // row another process inserts meanwhile waits and is queued with its seq; the backfill below
      // then covers every row queued before. (Stop the service processes before upgrading anyway:
      // an older integrator does not write entry_seq and reads subtrees 008 no longer stores.)
      for (const [table, kind, column] of SOURCES_AT_008) for (const sql of dialect.enqueueWithSeqForLog(table, kind, column)) await knex.raw(sql);
      await fillEntrySeq(knex, 'ledger_queue');
      // Filling in the new column is the one change ever made to existing leaves; the append-only
      // triggers step aside for it inside this migration's transaction.
      for (const sql of dialect.dropAppendOnly('ledger_leaves')) await knex.raw(sql);
      await fillEntrySeq(knex, 'ledger_leaves');
      for (const sql of dialect.appendOnly('ledger_leaves')) await knex.raw(sql);
      await knex.schema.alterTable('ledger_leaves', (t) => {
        t.unique(['kind', 'entry_seq'], { indexName: 'ledger_leaves_kind_entry_seq_unique' });
        t.dropUnique(['kind', 'entry_id']);
      });
    },
    async down(knex) {
      const dialect = dialectFor(knex);
      await knex.schema.alterTable('ledger_leaves', (t) => {
        t.unique(['kind', 'entry_id']);
        t.dropUnique(['kind', 'entry_seq'], 'ledger_leaves_kind_entry_seq_unique');
      });
      for (const [table, kind, column] of SOURCES_AT_008) {
        await knex.raw(dialect.dropEnqueueForLog(table));
        for (const sql of dialect.enqueueForLog(table, kind, column)) await knex.raw(sql);
      }
      for (const sql of dialect.dropEnqueueWithSeq()) await knex.raw(sql);
      await knex.raw('ALTER TABLE ledger_leaves DROP COLUMN entry_seq');
      await knex.raw('ALTER TABLE ledger_queue DROP COLUMN entry_seq');
      // The code before 008 reads a subtree at every level: write back the odd levels.
      await restoreOddLevels(knex);
    },
  },
  {
    // The id of the HTTP request behind each run and delivery (x-request-id, echoed to the client
    // and in the logs), so a log line leads to its ledger records. A nullable column added, no row
    // updated: the append-only triggers allow it. Not part of any leaf.
    name: '009_request_ids',
    async up(knex) {
      for (const table of ['invocations', 'deliveries']) await knex.schema.alterTable(table, (t) => t.string('request_id', 128).nullable());
    },
    async down(knex) {
      for (const table of ['invocations', 'deliveries']) await knex.schema.alterTable(table, (t) => t.dropColumn('request_id'));
    },
  },
  {
    // Listings give a large body's size and SHA-256 instead of its bytes, so the hash is stored
    // when the delivery is written (and filled in here for the deliveries already stored): a
    // listing then reads neither the body nor anything derived from it. On SQLite the table is
    // rebuilt with the body last (see rebuildDeliveriesBodyLast).
    name: '010_delivery_body_hash',
    async up(knex) {
      const dialect = dialectFor(knex);
      if (dialect.largeValuesInRow) return rebuildDeliveriesBodyLast(knex, dialect);
      // PostgreSQL keeps a large body out of line (TOAST): the row's other columns read without it.
      await knex.schema.alterTable('deliveries', (t) => t.string('body_sha256', 64).nullable());
      // Filling in the new column is the one change ever made to stored deliveries; the
      // append-only triggers step aside for it inside this migration's transaction.
      for (const sql of dialect.dropAppendOnly('deliveries')) await knex.raw(sql);
      await fillBodyHashes(knex, dialect);
      for (const sql of dialect.appendOnly('deliveries')) await knex.raw(sql);
    },
    async down(knex) {
      // Back to 009's columns (on SQLite the body stays last, which the code at 009 does not mind).
      await changingColumnsOf(knex, 'deliveries', () => knex.raw('ALTER TABLE deliveries DROP COLUMN body_sha256'));
    },
  },
  {
    // Large binary parts of tool results (images, audio, embedded blobs), stored once by the
    // SHA-256 of their bytes; invocation records name them instead of inlining them. Not a ledger
    // table: the leaf commits to each blob through its hash in the record.
    name: '011_content_blobs',
    async up(knex) {
      await knex.schema.createTable('content_blobs', (t) => {
        t.string('sha256', 64).primary();
        t.bigInteger('size').notNullable();
        t.string('mime_type', 255).nullable();
        t.string('created_at', 32).notNullable();
        // Last, so on SQLite a row's other columns read without paging through the bytes.
        t.binary('bytes').notNullable();
      });
    },
    async down(knex) {
      await knex.schema.dropTable('content_blobs');
    },
  },
  {
    // Forwarding: each webhook's destinations (settings that change, like webhooks) and the shared
    // schedule of attempts, one row per delivery and destination, claimed with leases. Neither is
    // a ledger table: the attempts themselves are invocations.
    name: '012_forwarding',
    async up(knex) {
      await knex.schema.createTable('destinations', (t) => {
        t.string('id', 24).primary();
        t.string('hook_id', 16).notNullable().index();
        t.string('name', 200).notNullable();
        t.text('url').notNullable();
        t.text('headers').notNullable();
        // The signing secret is needed in clear to sign; it is shown once, at creation.
        t.string('secret', 100).notNullable();
        t.integer('timeout_ms').notNullable();
        t.text('retry').notNullable();
        t.double('rate_per_s').nullable();
        t.integer('ordered').notNullable();
        t.text('filter').nullable();
        t.integer('is_on').notNullable();
        t.string('deleted_at', 40).nullable();
        t.string('created_at', 40).notNullable();
        t.string('updated_at', 40).notNullable();
      });
      await knex.schema.createTable('forward_jobs', (t) => {
        t.bigIncrements('seq').primary();
        t.string('id', 40).notNullable().unique();
        t.string('delivery', 40).notNullable().index();
        t.string('hook_id', 16).notNullable();
        t.string('destination', 24).notNullable();
        t.string('state', 16).notNullable();
        t.integer('attempts').notNullable();
        t.integer('last_status').nullable();
        t.bigInteger('due_at').nullable();
        t.text('invocations').notNullable();
        t.integer('ordered').notNullable();
        t.string('lease_owner', 40).nullable();
        t.bigInteger('lease_until').nullable();
        t.string('created_at', 40).notNullable();
        t.index(['state', 'due_at']);
        t.index(['destination', 'state', 'seq']);
      });
    },
    async down(knex) {
      await knex.schema.dropTable('forward_jobs');
      await knex.schema.dropTable('destinations');
    },
  },
  {
    // OAuth 2.1 for the MCP faces: registered clients (and cached client ID metadata documents),
    // the owner's grants, single-use codes and rotating refresh tokens. Codes, refresh tokens and
    // client secrets are stored as SHA-256 hashes only. Not ledger tables: the uses of the access
    // tokens (share tokens) are, under their fingerprints.
    name: '013_oauth',
    async up(knex) {
      await knex.schema.createTable('oauth_clients', (t) => {
        t.bigIncrements('seq').primary();
        // cl_… or a metadata document's URL (at most 200 characters: it is the tokens' actor).
        t.string('id', 200).notNullable().unique();
        t.string('kind', 20).notNullable();
        t.string('name', 200).notNullable();
        t.text('redirect_uris').notNullable();
        t.string('auth_method', 32).notNullable();
        t.string('secret_hash', 64).nullable();
        t.text('metadata').notNullable();
        t.string('created_at', 40).notNullable();
      });
      await knex.schema.createTable('oauth_grants', (t) => {
        t.bigIncrements('seq').primary();
        t.string('id', 80).notNullable().unique();
        t.string('client_id', 200).notNullable().index();
        t.text('resource').notNullable();
        t.text('moves').notNullable();
        t.text('keys').notNullable();
        t.string('created_at', 40).notNullable();
        t.string('revoked_at', 40).nullable();
        t.string('revoked_reason', 40).nullable();
      });
      await knex.schema.createTable('oauth_codes', (t) => {
        t.string('code_hash', 64).primary();
        t.string('client_id', 200).notNullable();
        t.string('grant_id', 80).notNullable();
        t.text('redirect_uri').notNullable();
        t.string('code_challenge', 64).notNullable();
        t.text('resource').notNullable();
        t.bigInteger('expires_at').notNullable();
        t.string('used_at', 40).nullable();
      });
      await knex.schema.createTable('oauth_refresh_tokens', (t) => {
        t.string('token_hash', 64).primary();
        t.string('grant_id', 80).notNullable().index();
        t.string('client_id', 200).notNullable();
        t.string('created_at', 40).notNullable();
        t.bigInteger('expires_at').notNullable();
        t.string('used_at', 40).nullable();
      });
    },
    async down(knex) {
      for (const table of ['oauth_refresh_tokens', 'oauth_codes', 'oauth_grants', 'oauth_clients']) await knex.schema.dropTable(table);
    },
  },
  {
    // 014: upstreams that sign in with OAuth. The record is sealed
    // (AES-256-GCM) by the service before it is written; the lease lets one process refresh at a time.
    name: '014_upstream_oauth',
    async up(knex) {
      await knex.schema.createTable('upstream_credentials', (t) => {
        t.string('upstream', 64).primary();
        t.text('sealed').notNullable();
        t.integer('version').notNullable();
        t.string('state', 16).notNullable();
        t.string('lease_holder', 64).nullable();
        t.bigInteger('lease_until').nullable();
        t.string('updated_at', 40).notNullable();
      });
    },
    async down(knex) {
      await knex.schema.dropTable('upstream_credentials');
    },
  },
  {
    // 015: write-ahead. A run is reserved here before its runner is called and the reservation is
    // deleted once its outcome is in the ledger; a reservation whose lease lapsed is swept as an
    // interrupted invocation. Not a ledger table: it holds runs in flight, the ledger what happened.
    // The storage probes: one row per process, written by /healthz to learn whether writes go in.
    name: '015_run_reservations',
    async up(knex) {
      await knex.schema.createTable('run_reservations', (t) => {
        t.string('id', 40).primary();
        t.string('holder', 40).notNullable();
        t.bigInteger('lease_until').notNullable().index();
        // The invocation record the run ends with if its outcome never arrives (status interrupted).
        t.text('record').notNullable();
      });
      await knex.schema.createTable('storage_probes', (t) => {
        t.string('holder', 40).primary();
        t.string('at', 40).notNullable();
      });
    },
    async down(knex) {
      await knex.schema.dropTable('storage_probes');
      await knex.schema.dropTable('run_reservations');
    },
  },
  {
    // 015b: Idempotency-Key (POST /api/dispatch): which request a credential's key belongs to and
    // which run it started, one row per credential and key. Not a ledger table. (015 had shipped;
    // the numbers between it and 018 are others'.)
    name: '015b_idempotency_keys',
    async up(knex) {
      await knex.schema.createTable('idempotency_keys', (t) => {
        t.string('scope', 120).notNullable();
        t.string('key', 255).notNullable();
        t.string('request_hash', 80).notNullable();
        t.string('invocation', 40).notNullable();
        t.bigInteger('lease_until').notNullable();
        t.bigInteger('created_at').notNullable();
        t.primary(['scope', 'key']);
      });
    },
    async down(knex) {
      await knex.schema.dropTable('idempotency_keys');
    },
  },
  {
    // 017: witness cosignatures (c2sp.org/tlog-cosignature) of signed checkpoints, one row per
    // checkpoint size and witness, kept as the signature line the witness answered. Served after the
    // checkpoint's own signature. Append-only like the rest of the log.
    name: '017_ledger_cosignatures',
    async up(knex) {
      await knex.schema.createTable('ledger_cosignatures', (t) => {
        t.bigInteger('size').notNullable();
        t.string('witness', 200).notNullable();
        t.bigInteger('timestamp').notNullable();
        t.text('line').notNullable();
        t.string('created_at', 32).notNullable();
        t.primary(['size', 'witness']);
      });
      await knex.raw('CREATE INDEX ledger_cosignatures_witness_size ON ledger_cosignatures (witness, size)');
      for (const sql of dialectFor(knex).appendOnly('ledger_cosignatures')) await knex.raw(sql);
    },
    async down(knex) {
      for (const sql of dialectFor(knex).dropAppendOnly('ledger_cosignatures')) await knex.raw(sql);
      await knex.schema.dropTable('ledger_cosignatures');
    },
  },
  {
    // 018: event types. Each delivery keeps the type its sender named (or the webhook's
    // event_type_path found) and the rule that found it, indexed for the listings' filter and the
    // counts, per webhook and across them. Deliveries stored before keep none: the ledger is not
    // rewritten. Webhooks gain the path and a replay window of their own for timestamped schemes.
    name: '018_event_types',
    async up(knex) {
      await knex.schema.alterTable('webhooks', (t) => {
        t.string('event_type_path', 220).nullable();
        t.integer('signature_tolerance_s').nullable();
      });
      // On SQLite the body must stay the last column (see rebuildDeliveriesBodyLast).
      await dialectFor(knex).addColumnsBeforeLast(knex, 'deliveries', [['event_type', 'varchar(200)'], ['event_type_rule', 'varchar(240)']]);
      await knex.raw('CREATE INDEX deliveries_event_type_seq ON deliveries (event_type, seq)');
      await knex.raw('CREATE INDEX deliveries_hook_event_type_seq ON deliveries (hook_id, event_type, seq)');
    },
    async down(knex) {
      await knex.raw('DROP INDEX deliveries_hook_event_type_seq');
      await knex.raw('DROP INDEX deliveries_event_type_seq');
      await changingColumnsOf(knex, 'deliveries', async () => {
        for (const column of ['event_type_rule', 'event_type']) await knex.raw(`ALTER TABLE deliveries DROP COLUMN ${column}`);
      });
      await knex.schema.alterTable('webhooks', (t) => {
        t.dropColumn('signature_tolerance_s');
        t.dropColumn('event_type_path');
      });
    },
  },
  {
    // 019: what a destination takes and gets. Its own cap on sends in flight (below the service's
    // per-destination share; null: that share), which of a delivery's headers it receives
    // (JSON: "all", "none" or a list of names; null: "all"), and the secret before a rotation,
    // signed with too until its grace ends. And the allowlist entries the owner adds at run time
    // (beside webhooks.forwarding.allow), read by every process.
    name: '019_destination_sending',
    async up(knex) {
      await knex.schema.alterTable('destinations', (t) => {
        t.integer('concurrency').nullable();
        t.text('forward_headers').nullable();
        t.string('previous_secret', 100).nullable();
        t.string('previous_secret_until', 40).nullable();
      });
      await knex.schema.createTable('forwarding_allow', (t) => {
        t.string('entry', 300).primary();
        t.string('created_at', 40).notNullable();
      });
    },
    async down(knex) {
      await knex.schema.dropTable('forwarding_allow');
      await knex.schema.alterTable('destinations', (t) => {
        t.dropColumn('previous_secret_until');
        t.dropColumn('previous_secret');
        t.dropColumn('forward_headers');
        t.dropColumn('concurrency');
      });
    },
  },
  {
    // 020: pinned tool definitions. One row per pin (the first import of a server, the owner's
    // approval of a change, or a server set to accept changes); the newest pin of a key is in force.
    // Append-only and a leaf of the Merkle log (kind tool_definition), so which definition a tool
    // was served under can be proven. The canonical definition is kept so a change shows as a diff.
    name: '020_tool_pins',
    async up(knex) {
      const dialect = dialectFor(knex);
      await knex.schema.createTable('tool_pins', (t) => {
        t.bigIncrements('seq').primary();
        t.string('id', 40).notNullable().unique();
        t.string('key', 128).notNullable();
        t.string('server', 64).notNullable();
        t.string('tool', 512).notNullable();
        t.string('definition_hash', 80).notNullable();
        t.text('definition').notNullable();
        t.string('override_hash', 80).nullable();
        t.string('reason', 16).notNullable();
        t.string('pinned_by', 200).notNullable();
        t.string('pinned_at', 40).notNullable();
        t.index(['server', 'tool', 'seq']);
      });
      for (const sql of dialect.appendOnly('tool_pins')) await knex.raw(sql);
      for (const sql of dialect.enqueueWithSeqForLog('tool_pins', 'tool_definition', 'id')) await knex.raw(sql);
    },
    async down(knex) {
      const dialect = dialectFor(knex);
      await knex.raw(dialect.dropEnqueueForLog('tool_pins'));
      for (const sql of dialect.dropAppendOnly('tool_pins')) await knex.raw(sql);
      await knex.schema.dropTable('tool_pins');
    },
  },
  {
    // 021: client rate limits shared by every process on one database (PostgreSQL binds the store
    // that uses it; SQLite, one process, keeps its windows in memory). One row per (bucket, client):
    // the window's start (ms) and the requests counted in it.
    name: '021_client_rate_windows',
    async up(knex) {
      await knex.schema.createTable('client_rate_windows', (t) => {
        t.string('bucket', 40).notNullable();
        t.string('client', 64).notNullable();
        t.bigInteger('window_start').notNullable();
        t.integer('count').notNullable();
        t.primary(['bucket', 'client']);
      });
      await knex.raw('CREATE INDEX client_rate_windows_start ON client_rate_windows (window_start)');
    },
    async down(knex) {
      await knex.schema.dropTable('client_rate_windows');
    },
  },
  {
    // 022: erasure that keeps every proof (docs/proofs.md#erasure). An erasure is a ledger entry of its
    // own (kind `erasure`, append-only, queued for the log like the others; one per entry, by the
    // unique index); the invocations' and deliveries' UPDATE refusal becomes one that lets through
    // exactly the emptying of an erased entry's payload, and nothing else.
    name: '022_ledger_erasures',
    async up(knex) {
      const dialect = dialectFor(knex);
      await knex.schema.createTable('ledger_erasures', (t) => {
        t.bigIncrements('seq').primary();
        t.string('id', 40).notNullable().unique();
        t.string('entry_kind', 16).notNullable();
        t.string('entry', 40).notNullable().unique();
        // The erased fields as the leaf names them, a JSON array.
        t.text('fields').notNullable();
        t.text('reason').notNullable();
        t.string('reason_sha256', 71).notNullable();
        t.string('erased_at', 40).notNullable();
      });
      for (const sql of dialect.appendOnly('ledger_erasures')) await knex.raw(sql);
      for (const sql of dialect.enqueueWithSeqForLog('ledger_erasures', 'erasure', 'id')) await knex.raw(sql);
      for (const table of ERASABLE_TABLES) await allowErasureOnly(knex, table);
    },
    async down(knex) {
      const dialect = dialectFor(knex);
      for (const table of ERASABLE_TABLES) await refuseEveryUpdate(knex, table);
      await knex.raw(dialect.dropEnqueueForLog('ledger_erasures'));
      for (const sql of dialect.dropAppendOnly('ledger_erasures')) await knex.raw(sql);
      await knex.schema.dropTable('ledger_erasures');
    },
  },
  {
    // 023: a destination's transform, a JSONata expression that rewrites a JSON body before it is
    // signed and sent (null: sent as received).
    name: '023_destination_transform',
    async up(knex) {
      await knex.schema.alterTable('destinations', (t) => {
        t.text('transform').nullable();
      });
    },
    async down(knex) {
      await knex.schema.alterTable('destinations', (t) => {
        t.dropColumn('transform');
      });
    },
  },
  {
    // 024: repair exclusivity decided by the database. A run reserved as a repair names the failure
    // it repairs; the unique index admits one reservation per failure, so two processes repairing
    // one failure at the same instant give one run (the other is refused, naming it). Runs that
    // repair nothing leave the column null, which the index does not count.
    name: '024_repair_reservations',
    async up(knex) {
      await knex.schema.alterTable('run_reservations', (t) => {
        t.string('repairs', 40).nullable();
      });
      await knex.raw('CREATE UNIQUE INDEX run_reservations_repairs ON run_reservations (repairs)');
    },
    async down(knex) {
      await knex.raw('DROP INDEX run_reservations_repairs');
      await knex.schema.alterTable('run_reservations', (t) => {
        t.dropColumn('repairs');
      });
    },
  },
  {
    // 024b: idempotency keys expire. The run sweeper deletes keys first used more than 24 h ago,
    // oldest first and a bounded number at a time: this index finds them without a scan.
    name: '024b_idempotency_keys_created_at',
    async up(knex) {
      await knex.raw('CREATE INDEX idempotency_keys_created_at ON idempotency_keys (created_at)');
    },
    async down(knex) {
      await knex.raw('DROP INDEX idempotency_keys_created_at');
    },
  },
  {
    // 025: destinations' circuits and `rate_per_s` slots, shared by every process on PostgreSQL
    // (a SQLite process keeps them in memory; the table stays empty there). Times are epoch ms.
    name: '025_destination_circuits',
    async up(knex) {
      await knex.schema.createTable('destination_circuits', (t) => {
        t.string('destination', 64).primary();
        t.integer('failures').notNullable();
        t.bigInteger('open_until').notNullable();
        t.bigInteger('probe_until').notNullable();
        t.bigInteger('next_slot').notNullable();
      });
    },
    async down(knex) {
      await knex.schema.dropTable('destination_circuits');
    },
  },
  {
    // 025b: traces across processes. An invocation keeps its trace id (null with traces off), and a
    // forwarding job the traceparent of the request that made it, so a worker's attempt joins the
    // trace of the api process's intake.
    name: '025b_trace_ids',
    async up(knex) {
      await knex.schema.alterTable('invocations', (t) => {
        t.string('trace_id', 32).nullable();
      });
      await knex.schema.alterTable('forward_jobs', (t) => {
        t.string('traceparent', 64).nullable();
      });
    },
    async down(knex) {
      await knex.schema.alterTable('forward_jobs', (t) => {
        t.dropColumn('traceparent');
      });
      await knex.schema.alterTable('invocations', (t) => {
        t.dropColumn('trace_id');
      });
    },
  },
  {
    // 026: a webhook's own retention (issue 31 item 3): its deliveries' private fields are erased
    // after this many days, overriding retention.privateDays; null keeps the global setting.
    name: '026_webhook_retention',
    async up(knex) {
      await knex.schema.alterTable('webhooks', (t) => {
        t.double('retention_private_days').nullable();
      });
    },
    async down(knex) {
      await knex.schema.alterTable('webhooks', (t) => {
        t.dropColumn('retention_private_days');
      });
    },
  },
  {
    // 028: what the last refresh of each imported MCP server found (issue 27 item 1), so that
    // every process on a PostgreSQL database serves the tools and holds of whichever refreshed.
    name: '028_imported_server_states',
    async up(knex) {
      await knex.schema.createTable('imported_server_states', (t) => {
        t.string('server', 200).primary();
        t.bigInteger('version').notNullable();
        t.text('address').notNullable();
        t.text('listing').notNullable();
        t.text('served').notNullable();
        t.text('held').notNullable();
        t.integer('omitted').notNullable();
        t.string('refreshed_at', 40).notNullable();
      });
    },
    async down(knex) {
      await knex.schema.dropTable('imported_server_states');
    },
  },
];

export const migrationSource: Knex.MigrationSource<Migration> = {
  getMigrations: async () => migrations,
  getMigrationName: (m) => m.name,
  getMigration: async (m) => ({ up: m.up, down: m.down }),
};

export const migrationNames = (): string[] => migrations.map((m) => m.name);
