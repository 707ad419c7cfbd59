// The one migration set for both engines, kept in code so a build carries its schema with it: one
// file per migration, applied in the order listed here. Add a migration as a new file at the end
// of the list; never edit one that has shipped. The schema they make is checked in per engine
// (schema/*.sql beside the storage tests) and held to it by a test that migrates an empty database.
import type { Knex } from 'knex';
import type { Migration } from './migration.js';
import m001_invocations_and_api_keys from './001_invocations_and_api_keys.js';
import m002_webhooks_and_deliveries from './002_webhooks_and_deliveries.js';
import m003_webhook_signatures from './003_webhook_signatures.js';
import m004_first_delivery_index from './004_first_delivery_index.js';
import m005_verifiable_ledger from './005_verifiable_ledger.js';
import m006_token_uses from './006_token_uses.js';
import m007_approvals from './007_approvals.js';
import m008_ledger_entry_positions from './008_ledger_entry_positions.js';
import m009_request_ids from './009_request_ids.js';
import m010_delivery_body_hash from './010_delivery_body_hash.js';
import m011_content_blobs from './011_content_blobs.js';
import m012_forwarding from './012_forwarding.js';
import m013_oauth from './013_oauth.js';
import m014_upstream_oauth from './014_upstream_oauth.js';
import m015_run_reservations from './015_run_reservations.js';
import m015b_idempotency_keys from './015b_idempotency_keys.js';
import m017_ledger_cosignatures from './017_ledger_cosignatures.js';
import m018_event_types from './018_event_types.js';
import m019_destination_sending from './019_destination_sending.js';
import m020_tool_pins from './020_tool_pins.js';
import m021_client_rate_windows from './021_client_rate_windows.js';
import m022_ledger_erasures from './022_ledger_erasures.js';
import m023_destination_transform from './023_destination_transform.js';
import m024_repair_reservations from './024_repair_reservations.js';
import m024b_idempotency_keys_created_at from './024b_idempotency_keys_created_at.js';
import m025_destination_circuits from './025_destination_circuits.js';
import m025b_trace_ids from './025b_trace_ids.js';
import m026_webhook_retention from './026_webhook_retention.js';
import m028_imported_server_states from './028_imported_server_states.js';

export type { Migration } from './migration.js';
export { LOGGED_TABLES } from './shared.js';

const migrations: readonly Migration[] = [
  m001_invocations_and_api_keys,
  m002_webhooks_and_deliveries,
  m003_webhook_signatures,
  m004_first_delivery_index,
  m005_verifiable_ledger,
  m006_token_uses,
  m007_approvals,
  m008_ledger_entry_positions,
  m009_request_ids,
  m010_delivery_body_hash,
  m011_content_blobs,
  m012_forwarding,
  m013_oauth,
  m014_upstream_oauth,
  m015_run_reservations,
  m015b_idempotency_keys,
  m017_ledger_cosignatures,
  m018_event_types,
  m019_destination_sending,
  m020_tool_pins,
  m021_client_rate_windows,
  m022_ledger_erasures,
  m023_destination_transform,
  m024_repair_reservations,
  m024b_idempotency_keys_created_at,
  m025_destination_circuits,
  m025b_trace_ids,
  m026_webhook_retention,
  m028_imported_server_states,
];

export const migrationSource: Knex.MigrationSource<Migration> = {
  getMigrations: async () => [...migrations],
  getMigrationName: (m) => m.name,
  getMigration: async (m) => ({ up: m.up, down: m.down }),
};

export const migrationNames = (): string[] => migrations.map((m) => m.name);
