-- The schema of migrations/ on SQLite, read back from an empty database migrated (test/integration/schema-snapshot.test.ts). Do not edit: write it again.

-- table api_keys
CREATE TABLE `api_keys` (`id` integer not null primary key autoincrement, `key_hash` varchar(64) not null, `label` varchar(200) not null, `created_at` varchar(40) not null);

-- table approvals
CREATE TABLE `approvals` (`seq` integer not null primary key autoincrement, `id` varchar(40) not null, `invocation` varchar(40) not null, `decision` varchar(16) not null, `args_hash` varchar(80) not null, `decided_by` varchar(200) not null, `decided_at` varchar(40) not null, `run_invocation` varchar(40) null);

-- table client_rate_windows
CREATE TABLE `client_rate_windows` (`bucket` varchar(40) not null, `client` varchar(64) not null, `window_start` bigint not null, `count` integer not null, primary key (`bucket`, `client`));

-- table content_blobs
CREATE TABLE `content_blobs` (`sha256` varchar(64), `size` bigint not null, `mime_type` varchar(255) null, `created_at` varchar(32) not null, `bytes` blob not null, primary key (`sha256`));

-- table deliveries
CREATE TABLE "deliveries" ("seq" INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, "id" varchar(40) NOT NULL, "hook_id" varchar(16) NOT NULL, "received_at" varchar(40) NOT NULL, "method" varchar(16) NOT NULL, "path" TEXT NOT NULL, "query" TEXT NOT NULL, "headers" TEXT NOT NULL, "body_size" INTEGER NOT NULL, "client_address" varchar(64), "delivery_id" varchar(200), "delivery_id_rule" varchar(240), "outcome" varchar(16) NOT NULL, "refusal" TEXT, "action" varchar(128), "duplicate_of" varchar(40), "signature" varchar(16), "request_id" varchar(128), "body_sha256" varchar(64), "event_type" varchar(200) NULL, "event_type_rule" varchar(240) NULL, "body" BLOB);

-- table destination_circuits
CREATE TABLE `destination_circuits` (`destination` varchar(64), `failures` integer not null, `open_until` bigint not null, `probe_until` bigint not null, `next_slot` bigint not null, primary key (`destination`));

-- table destinations
CREATE TABLE `destinations` (`id` varchar(24), `hook_id` varchar(16) not null, `name` varchar(200) not null, `url` text not null, `headers` text not null, `secret` varchar(100) not null, `timeout_ms` integer not null, `retry` text not null, `rate_per_s` float null, `ordered` integer not null, `filter` text null, `is_on` integer not null, `deleted_at` varchar(40) null, `created_at` varchar(40) not null, `updated_at` varchar(40) not null, `concurrency` integer null, `forward_headers` text null, `previous_secret` varchar(100) null, `previous_secret_until` varchar(40) null, `transform` text null, primary key (`id`));

-- table forward_jobs
CREATE TABLE `forward_jobs` (`seq` integer not null primary key autoincrement, `id` varchar(40) not null, `delivery` varchar(40) not null, `hook_id` varchar(16) not null, `destination` varchar(24) not null, `state` varchar(16) not null, `attempts` integer not null, `last_status` integer null, `due_at` bigint null, `invocations` text not null, `ordered` integer not null, `lease_owner` varchar(40) null, `lease_until` bigint null, `created_at` varchar(40) not null, `traceparent` varchar(64) null);

-- table forwarding_allow
CREATE TABLE `forwarding_allow` (`entry` varchar(300), `created_at` varchar(40) not null, primary key (`entry`));

-- table idempotency_keys
CREATE TABLE `idempotency_keys` (`scope` varchar(120) not null, `key` varchar(255) not null, `request_hash` varchar(80) not null, `invocation` varchar(40) not null, `lease_until` bigint not null, `created_at` bigint not null, primary key (`scope`, `key`));

-- table imported_server_states
CREATE TABLE `imported_server_states` (`server` varchar(200), `version` bigint not null, `address` text not null, `listing` text not null, `served` text not null, `held` text not null, `omitted` integer not null, `refreshed_at` varchar(40) not null, primary key (`server`));

-- table invocations
CREATE TABLE `invocations` (`seq` integer not null primary key autoincrement, `id` varchar(40) not null, `key` varchar(128) not null, `actor` varchar(200) not null, `fingerprint` varchar(100) null, `status` varchar(24) not null, `ok` boolean not null, `ran` boolean not null, `repairs` varchar(40) null, `replays` varchar(40) null, `source` varchar(200) not null, `created_at` varchar(40) not null, `duration_ms` integer not null, `record` text not null, `request_id` varchar(128) null, `trace_id` varchar(32) null);

-- table knex_migrations
CREATE TABLE `knex_migrations` (`id` integer not null primary key autoincrement, `name` varchar(255), `batch` integer, `migration_time` datetime);

-- table knex_migrations_lock
CREATE TABLE `knex_migrations_lock` (`index` integer not null primary key autoincrement, `is_locked` integer);

-- table ledger_checkpoints
CREATE TABLE `ledger_checkpoints` (`size` bigint, `root` varchar(64) not null, `note` text not null, `created_at` varchar(40) not null, primary key (`size`));

-- table ledger_cosignatures
CREATE TABLE `ledger_cosignatures` (`size` bigint not null, `witness` varchar(200) not null, `timestamp` bigint not null, `line` text not null, `created_at` varchar(32) not null, primary key (`size`, `witness`));

-- table ledger_erasures
CREATE TABLE `ledger_erasures` (`seq` integer not null primary key autoincrement, `id` varchar(40) not null, `entry_kind` varchar(16) not null, `entry` varchar(40) not null, `fields` text not null, `reason` text not null, `reason_sha256` varchar(71) not null, `erased_at` varchar(40) not null);

-- table ledger_leaves
CREATE TABLE `ledger_leaves` (`idx` bigint, `kind` varchar(16) not null, `entry_id` varchar(40) not null, `leaf` text not null, `leaf_hash` varchar(64) not null, `integrated_at` varchar(40) not null, `entry_seq` bigint null, primary key (`idx`));

-- table ledger_nodes
CREATE TABLE `ledger_nodes` (`level` integer not null, `idx` bigint not null, `hash` varchar(64) not null, primary key (`level`, `idx`));

-- table ledger_queue
CREATE TABLE `ledger_queue` (`seq` integer not null primary key autoincrement, `kind` varchar(16) not null, `entry_id` varchar(40) not null, `entry_seq` bigint null);

-- table ledger_settings
CREATE TABLE `ledger_settings` (`name` varchar(64), `value` text not null, `created_at` varchar(40) not null, primary key (`name`));

-- table oauth_clients
CREATE TABLE `oauth_clients` (`seq` integer not null primary key autoincrement, `id` varchar(200) not null, `kind` varchar(20) not null, `name` varchar(200) not null, `redirect_uris` text not null, `auth_method` varchar(32) not null, `secret_hash` varchar(64) null, `metadata` text not null, `created_at` varchar(40) not null);

-- table oauth_codes
CREATE TABLE `oauth_codes` (`code_hash` varchar(64), `client_id` varchar(200) not null, `grant_id` varchar(80) not null, `redirect_uri` text not null, `code_challenge` varchar(64) not null, `resource` text not null, `expires_at` bigint not null, `used_at` varchar(40) null, primary key (`code_hash`));

-- table oauth_grants
CREATE TABLE `oauth_grants` (`seq` integer not null primary key autoincrement, `id` varchar(80) not null, `client_id` varchar(200) not null, `resource` text not null, `moves` text not null, `keys` text not null, `created_at` varchar(40) not null, `revoked_at` varchar(40) null, `revoked_reason` varchar(40) null);

-- table oauth_refresh_tokens
CREATE TABLE `oauth_refresh_tokens` (`token_hash` varchar(64), `grant_id` varchar(80) not null, `client_id` varchar(200) not null, `created_at` varchar(40) not null, `expires_at` bigint not null, `used_at` varchar(40) null, primary key (`token_hash`));

-- table run_reservations
CREATE TABLE `run_reservations` (`id` varchar(40), `holder` varchar(40) not null, `lease_until` bigint not null, `record` text not null, `repairs` varchar(40) null, primary key (`id`));

-- table storage_probes
CREATE TABLE `storage_probes` (`holder` varchar(40), `at` varchar(40) not null, primary key (`holder`));

-- table token_use_slots
CREATE TABLE `token_use_slots` (`fingerprint` varchar(40) not null, `slot` integer not null, primary key (`fingerprint`, `slot`));

-- table token_uses
CREATE TABLE `token_uses` (`seq` integer not null primary key autoincrement, `id` varchar(40) not null, `fingerprint` varchar(40) not null, `move` varchar(200) not null, `outcome` varchar(16) not null, `code` varchar(40) null, `route` text not null, `at` varchar(40) not null);

-- table tool_pins
CREATE TABLE `tool_pins` (`seq` integer not null primary key autoincrement, `id` varchar(40) not null, `key` varchar(128) not null, `server` varchar(64) not null, `tool` varchar(512) not null, `definition_hash` varchar(80) not null, `definition` text not null, `override_hash` varchar(80) null, `reason` varchar(16) not null, `pinned_by` varchar(200) not null, `pinned_at` varchar(40) not null);

-- table upstream_credentials
CREATE TABLE `upstream_credentials` (`upstream` varchar(64), `sealed` text not null, `version` integer not null, `state` varchar(16) not null, `lease_holder` varchar(64) null, `lease_until` bigint null, `updated_at` varchar(40) not null, primary key (`upstream`));

-- table webhook_actions
CREATE TABLE `webhook_actions` (`seq` integer not null primary key autoincrement, `delivery` varchar(40) not null, `action` varchar(128) not null, `invocation` varchar(40) not null, `ok` boolean not null, `status` varchar(24) not null, `answer` text not null, `created_at` varchar(40) not null);

-- table webhooks
CREATE TABLE `webhooks` (`id` varchar(16), `name` varchar(200) not null, `on` boolean not null, `delivery_id_path` varchar(220) null, `created_at` varchar(40) not null, `updated_at` varchar(40) not null, `signature_scheme` varchar(32) null, `signature_secret` text null, `signature_header` varchar(100) null, `require_signature` boolean not null default '0', `event_type_path` varchar(220) null, `signature_tolerance_s` integer null, `retention_private_days` float null, primary key (`id`));

-- index api_keys_key_hash_unique
CREATE UNIQUE INDEX `api_keys_key_hash_unique` on `api_keys` (`key_hash`);

-- index approvals_id_unique
CREATE UNIQUE INDEX `approvals_id_unique` on `approvals` (`id`);

-- index approvals_invocation_unique
CREATE UNIQUE INDEX `approvals_invocation_unique` on `approvals` (`invocation`);

-- index client_rate_windows_start
CREATE INDEX client_rate_windows_start ON client_rate_windows (window_start);

-- index deliveries_event_type_seq
CREATE INDEX deliveries_event_type_seq ON deliveries (event_type, seq);

-- index deliveries_first_by_id
CREATE UNIQUE INDEX deliveries_first_by_id ON deliveries (hook_id, delivery_id) WHERE delivery_id IS NOT NULL AND duplicate_of IS NULL AND outcome = 'accepted';

-- index deliveries_hook_event_type_seq
CREATE INDEX deliveries_hook_event_type_seq ON deliveries (hook_id, event_type, seq);

-- index deliveries_hook_id_seq_index
CREATE INDEX deliveries_hook_id_seq_index ON deliveries (hook_id, seq);

-- index deliveries_id_unique
CREATE UNIQUE INDEX deliveries_id_unique ON deliveries (id);

-- index destinations_hook_id_index
CREATE INDEX `destinations_hook_id_index` on `destinations` (`hook_id`);

-- index forward_jobs_delivery_index
CREATE INDEX `forward_jobs_delivery_index` on `forward_jobs` (`delivery`);

-- index forward_jobs_destination_state_seq_index
CREATE INDEX `forward_jobs_destination_state_seq_index` on `forward_jobs` (`destination`, `state`, `seq`);

-- index forward_jobs_id_unique
CREATE UNIQUE INDEX `forward_jobs_id_unique` on `forward_jobs` (`id`);

-- index forward_jobs_state_due_at_index
CREATE INDEX `forward_jobs_state_due_at_index` on `forward_jobs` (`state`, `due_at`);

-- index idempotency_keys_created_at
CREATE INDEX idempotency_keys_created_at ON idempotency_keys (created_at);

-- index invocations_id_unique
CREATE UNIQUE INDEX `invocations_id_unique` on `invocations` (`id`);

-- index invocations_key_seq_index
CREATE INDEX `invocations_key_seq_index` on `invocations` (`key`, `seq`);

-- index invocations_repairs_index
CREATE INDEX `invocations_repairs_index` on `invocations` (`repairs`);

-- index invocations_replays_index
CREATE INDEX `invocations_replays_index` on `invocations` (`replays`);

-- index invocations_status_seq_index
CREATE INDEX `invocations_status_seq_index` on `invocations` (`status`, `seq`);

-- index ledger_cosignatures_witness_size
CREATE INDEX ledger_cosignatures_witness_size ON ledger_cosignatures (witness, size);

-- index ledger_erasures_entry_unique
CREATE UNIQUE INDEX `ledger_erasures_entry_unique` on `ledger_erasures` (`entry`);

-- index ledger_erasures_id_unique
CREATE UNIQUE INDEX `ledger_erasures_id_unique` on `ledger_erasures` (`id`);

-- index ledger_leaves_kind_entry_seq_unique
CREATE UNIQUE INDEX `ledger_leaves_kind_entry_seq_unique` on `ledger_leaves` (`kind`, `entry_seq`);

-- index oauth_clients_id_unique
CREATE UNIQUE INDEX `oauth_clients_id_unique` on `oauth_clients` (`id`);

-- index oauth_grants_client_id_index
CREATE INDEX `oauth_grants_client_id_index` on `oauth_grants` (`client_id`);

-- index oauth_grants_id_unique
CREATE UNIQUE INDEX `oauth_grants_id_unique` on `oauth_grants` (`id`);

-- index oauth_refresh_tokens_grant_id_index
CREATE INDEX `oauth_refresh_tokens_grant_id_index` on `oauth_refresh_tokens` (`grant_id`);

-- index run_reservations_lease_until_index
CREATE INDEX `run_reservations_lease_until_index` on `run_reservations` (`lease_until`);

-- index run_reservations_repairs
CREATE UNIQUE INDEX run_reservations_repairs ON run_reservations (repairs);

-- index token_uses_fingerprint_seq_index
CREATE INDEX `token_uses_fingerprint_seq_index` on `token_uses` (`fingerprint`, `seq`);

-- index token_uses_id_unique
CREATE UNIQUE INDEX `token_uses_id_unique` on `token_uses` (`id`);

-- index tool_pins_id_unique
CREATE UNIQUE INDEX `tool_pins_id_unique` on `tool_pins` (`id`);

-- index tool_pins_server_tool_seq_index
CREATE INDEX `tool_pins_server_tool_seq_index` on `tool_pins` (`server`, `tool`, `seq`);

-- index webhook_actions_delivery_unique
CREATE UNIQUE INDEX `webhook_actions_delivery_unique` on `webhook_actions` (`delivery`);

-- trigger approvals_log_enqueue
CREATE TRIGGER approvals_log_enqueue AFTER INSERT ON approvals BEGIN INSERT INTO ledger_queue (kind, entry_id, entry_seq) VALUES ('approval', NEW.id, NEW.seq); END;

-- trigger approvals_no_delete
CREATE TRIGGER approvals_no_delete BEFORE DELETE ON approvals BEGIN SELECT RAISE(ABORT, 'ledger is append-only: DELETE on approvals is not allowed'); END;

-- trigger approvals_no_update
CREATE TRIGGER approvals_no_update BEFORE UPDATE ON approvals BEGIN SELECT RAISE(ABORT, 'ledger is append-only: UPDATE on approvals is not allowed'); END;

-- trigger deliveries_log_enqueue
CREATE TRIGGER deliveries_log_enqueue AFTER INSERT ON deliveries BEGIN INSERT INTO ledger_queue (kind, entry_id, entry_seq) VALUES ('delivery', NEW.id, NEW.seq); END;

-- trigger deliveries_no_delete
CREATE TRIGGER deliveries_no_delete BEFORE DELETE ON deliveries BEGIN SELECT RAISE(ABORT, 'ledger is append-only: DELETE on deliveries is not allowed'); END;

-- trigger deliveries_no_update
CREATE TRIGGER deliveries_no_update BEFORE UPDATE ON deliveries WHEN NOT (EXISTS (SELECT 1 FROM ledger_erasures e WHERE e.entry = OLD.id AND e.entry_kind = 'delivery') AND NEW."seq" IS OLD."seq" AND NEW."id" IS OLD."id" AND NEW."hook_id" IS OLD."hook_id" AND NEW."received_at" IS OLD."received_at" AND NEW."method" IS OLD."method" AND NEW."path" IS OLD."path" AND NEW."body_size" IS OLD."body_size" AND NEW."client_address" IS OLD."client_address" AND NEW."delivery_id" IS OLD."delivery_id" AND NEW."delivery_id_rule" IS OLD."delivery_id_rule" AND NEW."outcome" IS OLD."outcome" AND NEW."refusal" IS OLD."refusal" AND NEW."action" IS OLD."action" AND NEW."duplicate_of" IS OLD."duplicate_of" AND NEW."signature" IS OLD."signature" AND NEW."request_id" IS OLD."request_id" AND NEW."event_type" IS OLD."event_type" AND NEW."event_type_rule" IS OLD."event_type_rule" AND NEW."body" IS NULL AND NEW."body_sha256" IS NULL AND NEW."headers" = '[]' AND NEW."query" = '') BEGIN SELECT RAISE(ABORT, 'ledger is append-only: UPDATE on deliveries is allowed only to erase an entry with an erasure entry'); END;

-- trigger invocations_log_enqueue
CREATE TRIGGER invocations_log_enqueue AFTER INSERT ON invocations BEGIN INSERT INTO ledger_queue (kind, entry_id, entry_seq) VALUES ('invocation', NEW.id, NEW.seq); END;

-- trigger invocations_no_delete
CREATE TRIGGER invocations_no_delete BEFORE DELETE ON invocations BEGIN SELECT RAISE(ABORT, 'ledger is append-only: DELETE on invocations is not allowed'); END;

-- trigger invocations_no_update
CREATE TRIGGER invocations_no_update BEFORE UPDATE ON invocations WHEN NOT (EXISTS (SELECT 1 FROM ledger_erasures e WHERE e.entry = OLD.id AND e.entry_kind = 'invocation') AND NEW."seq" IS OLD."seq" AND NEW."id" IS OLD."id" AND NEW."key" IS OLD."key" AND NEW."actor" IS OLD."actor" AND NEW."fingerprint" IS OLD."fingerprint" AND NEW."status" IS OLD."status" AND NEW."ok" IS OLD."ok" AND NEW."ran" IS OLD."ran" AND NEW."repairs" IS OLD."repairs" AND NEW."replays" IS OLD."replays" AND NEW."source" IS OLD."source" AND NEW."created_at" IS OLD."created_at" AND NEW."duration_ms" IS OLD."duration_ms" AND NEW."request_id" IS OLD."request_id" AND json_remove(NEW."record", '$.args', '$.body', '$.content', '$.logs', '$.result', '$.structured_content') = json_remove(OLD."record", '$.args', '$.body', '$.content', '$.logs', '$.result', '$.structured_content') AND json_extract(NEW."record", '$.args') IS NULL AND json_extract(NEW."record", '$.body') IS NULL AND json_extract(NEW."record", '$.content') IS NULL AND json_extract(NEW."record", '$.logs') IS NULL AND json_extract(NEW."record", '$.result') IS NULL AND json_extract(NEW."record", '$.structured_content') IS NULL) BEGIN SELECT RAISE(ABORT, 'ledger is append-only: UPDATE on invocations is allowed only to erase an entry with an erasure entry'); END;

-- trigger ledger_checkpoints_no_delete
CREATE TRIGGER ledger_checkpoints_no_delete BEFORE DELETE ON ledger_checkpoints BEGIN SELECT RAISE(ABORT, 'ledger is append-only: DELETE on ledger_checkpoints is not allowed'); END;

-- trigger ledger_checkpoints_no_update
CREATE TRIGGER ledger_checkpoints_no_update BEFORE UPDATE ON ledger_checkpoints BEGIN SELECT RAISE(ABORT, 'ledger is append-only: UPDATE on ledger_checkpoints is not allowed'); END;

-- trigger ledger_cosignatures_no_delete
CREATE TRIGGER ledger_cosignatures_no_delete BEFORE DELETE ON ledger_cosignatures BEGIN SELECT RAISE(ABORT, 'ledger is append-only: DELETE on ledger_cosignatures is not allowed'); END;

-- trigger ledger_cosignatures_no_update
CREATE TRIGGER ledger_cosignatures_no_update BEFORE UPDATE ON ledger_cosignatures BEGIN SELECT RAISE(ABORT, 'ledger is append-only: UPDATE on ledger_cosignatures is not allowed'); END;

-- trigger ledger_erasures_log_enqueue
CREATE TRIGGER ledger_erasures_log_enqueue AFTER INSERT ON ledger_erasures BEGIN INSERT INTO ledger_queue (kind, entry_id, entry_seq) VALUES ('erasure', NEW.id, NEW.seq); END;

-- trigger ledger_erasures_no_delete
CREATE TRIGGER ledger_erasures_no_delete BEFORE DELETE ON ledger_erasures BEGIN SELECT RAISE(ABORT, 'ledger is append-only: DELETE on ledger_erasures is not allowed'); END;

-- trigger ledger_erasures_no_update
CREATE TRIGGER ledger_erasures_no_update BEFORE UPDATE ON ledger_erasures BEGIN SELECT RAISE(ABORT, 'ledger is append-only: UPDATE on ledger_erasures is not allowed'); END;

-- trigger ledger_leaves_no_delete
CREATE TRIGGER ledger_leaves_no_delete BEFORE DELETE ON ledger_leaves BEGIN SELECT RAISE(ABORT, 'ledger is append-only: DELETE on ledger_leaves is not allowed'); END;

-- trigger ledger_leaves_no_update
CREATE TRIGGER ledger_leaves_no_update BEFORE UPDATE ON ledger_leaves BEGIN SELECT RAISE(ABORT, 'ledger is append-only: UPDATE on ledger_leaves is not allowed'); END;

-- trigger ledger_nodes_no_delete
CREATE TRIGGER ledger_nodes_no_delete BEFORE DELETE ON ledger_nodes BEGIN SELECT RAISE(ABORT, 'ledger is append-only: DELETE on ledger_nodes is not allowed'); END;

-- trigger ledger_nodes_no_update
CREATE TRIGGER ledger_nodes_no_update BEFORE UPDATE ON ledger_nodes BEGIN SELECT RAISE(ABORT, 'ledger is append-only: UPDATE on ledger_nodes is not allowed'); END;

-- trigger ledger_settings_no_delete
CREATE TRIGGER ledger_settings_no_delete BEFORE DELETE ON ledger_settings BEGIN SELECT RAISE(ABORT, 'ledger is append-only: DELETE on ledger_settings is not allowed'); END;

-- trigger ledger_settings_no_update
CREATE TRIGGER ledger_settings_no_update BEFORE UPDATE ON ledger_settings BEGIN SELECT RAISE(ABORT, 'ledger is append-only: UPDATE on ledger_settings is not allowed'); END;

-- trigger token_use_slots_no_delete
CREATE TRIGGER token_use_slots_no_delete BEFORE DELETE ON token_use_slots BEGIN SELECT RAISE(ABORT, 'ledger is append-only: DELETE on token_use_slots is not allowed'); END;

-- trigger token_use_slots_no_update
CREATE TRIGGER token_use_slots_no_update BEFORE UPDATE ON token_use_slots BEGIN SELECT RAISE(ABORT, 'ledger is append-only: UPDATE on token_use_slots is not allowed'); END;

-- trigger token_uses_log_enqueue
CREATE TRIGGER token_uses_log_enqueue AFTER INSERT ON token_uses BEGIN INSERT INTO ledger_queue (kind, entry_id, entry_seq) VALUES ('token_use', NEW.id, NEW.seq); END;

-- trigger token_uses_no_delete
CREATE TRIGGER token_uses_no_delete BEFORE DELETE ON token_uses BEGIN SELECT RAISE(ABORT, 'ledger is append-only: DELETE on token_uses is not allowed'); END;

-- trigger token_uses_no_update
CREATE TRIGGER token_uses_no_update BEFORE UPDATE ON token_uses BEGIN SELECT RAISE(ABORT, 'ledger is append-only: UPDATE on token_uses is not allowed'); END;

-- trigger tool_pins_log_enqueue
CREATE TRIGGER tool_pins_log_enqueue AFTER INSERT ON tool_pins BEGIN INSERT INTO ledger_queue (kind, entry_id, entry_seq) VALUES ('tool_definition', NEW.id, NEW.seq); END;

-- trigger tool_pins_no_delete
CREATE TRIGGER tool_pins_no_delete BEFORE DELETE ON tool_pins BEGIN SELECT RAISE(ABORT, 'ledger is append-only: DELETE on tool_pins is not allowed'); END;

-- trigger tool_pins_no_update
CREATE TRIGGER tool_pins_no_update BEFORE UPDATE ON tool_pins BEGIN SELECT RAISE(ABORT, 'ledger is append-only: UPDATE on tool_pins is not allowed'); END;

-- trigger webhook_actions_log_enqueue
CREATE TRIGGER webhook_actions_log_enqueue AFTER INSERT ON webhook_actions BEGIN INSERT INTO ledger_queue (kind, entry_id, entry_seq) VALUES ('action', NEW.delivery, NEW.seq); END;

-- trigger webhook_actions_no_delete
CREATE TRIGGER webhook_actions_no_delete BEFORE DELETE ON webhook_actions BEGIN SELECT RAISE(ABORT, 'ledger is append-only: DELETE on webhook_actions is not allowed'); END;

-- trigger webhook_actions_no_update
CREATE TRIGGER webhook_actions_no_update BEFORE UPDATE ON webhook_actions BEGIN SELECT RAISE(ABORT, 'ledger is append-only: UPDATE on webhook_actions is not allowed'); END;
