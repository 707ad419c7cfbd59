// OAuth 2.1 for the MCP faces: registered clients (and cached client ID metadata documents),
// the owner's grants, single-use codes and rotating refresh tokens. Codes, refresh tokens and
// client secrets are stored as SHA-256 hashes only. Not ledger tables: the uses of the access
// tokens (share tokens) are, under their fingerprints.
import type { Migration } from './migration.js';

const migration: Migration = {
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
};

export default migration;
