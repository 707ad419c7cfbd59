// What several of the shipped migrations use: each keeps the list it was written against.
import { hash } from 'node:crypto';
import type { Knex } from 'knex';
import { hashChildren } from '@switchyard/core';
import { FIRST_DELIVERY, type Dialect } from '../dialect.js';
import { chunks } from '../sql-batches.js';

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
export const SOURCES_AT_008 = [...LOGGED_TABLES, ['token_uses', 'token_use', 'id'] as const, ['approvals', 'approval', 'id'] as const];

/** 008: sets `entry_seq` on every row of `target` (the queue or the leaves) from its entry's table. */
export async function fillEntrySeq(knex: Knex, target: 'ledger_queue' | 'ledger_leaves'): Promise<void> {
  for (const [table, kind, column] of SOURCES_AT_008) {
    await knex.raw(`UPDATE ${target} SET entry_seq = (SELECT seq FROM ${table} WHERE ${column} = ${target}.entry_id) WHERE kind = ?`, [kind]);
  }
}

/**
 * Stores the subtree at every odd level that has both children (leaf hashes for level 1, stored
 * even-level subtrees above), for logs written while only even levels were kept. Pages of children
 * start at even indexes, so each page holds whole pairs.
 */
export async function restoreOddLevels(knex: Knex): Promise<void> {
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
export const DELIVERY_COLUMNS_010 = [
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
export async function rebuildDeliveriesBodyLast(knex: Knex, dialect: Dialect): Promise<void> {
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
export async function fillBodyHashes(knex: Knex, dialect: Dialect): Promise<void> {
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
