-- The schema of migrations/ on PostgreSQL, read back from an empty database migrated (test/integration/schema-snapshot.test.ts). Do not edit: write it again.

-- table api_keys
CREATE TABLE api_keys (
  id integer NOT NULL DEFAULT nextval('api_keys_id_seq'::regclass),
  key_hash character varying(64) NOT NULL,
  label character varying(200) NOT NULL,
  created_at character varying(40) NOT NULL
);

-- table approvals
CREATE TABLE approvals (
  seq bigint NOT NULL DEFAULT nextval('approvals_seq_seq'::regclass),
  id character varying(40) NOT NULL,
  invocation character varying(40) NOT NULL,
  decision character varying(16) NOT NULL,
  args_hash character varying(80) NOT NULL,
  decided_by character varying(200) NOT NULL,
  decided_at character varying(40) NOT NULL,
  run_invocation character varying(40)
);

-- table client_rate_windows
CREATE TABLE client_rate_windows (
  bucket character varying(40) NOT NULL,
  client character varying(64) NOT NULL,
  window_start bigint NOT NULL,
  count integer NOT NULL
);

-- table content_blobs
CREATE TABLE content_blobs (
  sha256 character varying(64) NOT NULL,
  size bigint NOT NULL,
  mime_type character varying(255),
  created_at character varying(32) NOT NULL,
  bytes bytea NOT NULL
);

-- table deliveries
CREATE TABLE deliveries (
  seq bigint NOT NULL DEFAULT nextval('deliveries_seq_seq'::regclass),
  id character varying(40) NOT NULL,
  hook_id character varying(16) NOT NULL,
  received_at character varying(40) NOT NULL,
  method character varying(16) NOT NULL,
  path text NOT NULL,
  query text NOT NULL,
  headers text NOT NULL,
  body bytea,
  body_size integer NOT NULL,
  client_address character varying(64),
  delivery_id character varying(200),
  delivery_id_rule character varying(240),
  outcome character varying(16) NOT NULL,
  refusal text,
  action character varying(128),
  duplicate_of character varying(40),
  signature character varying(16),
  request_id character varying(128),
  body_sha256 character varying(64),
  event_type character varying(200),
  event_type_rule character varying(240)
);

-- table destination_circuits
CREATE TABLE destination_circuits (
  destination character varying(64) NOT NULL,
  failures integer NOT NULL,
  open_until bigint NOT NULL,
  probe_until bigint NOT NULL,
  next_slot bigint NOT NULL
);

-- table destinations
CREATE TABLE destinations (
  id character varying(24) NOT NULL,
  hook_id character varying(16) NOT NULL,
  name character varying(200) NOT NULL,
  url text NOT NULL,
  headers text NOT NULL,
  secret character varying(100) NOT NULL,
  timeout_ms integer NOT NULL,
  retry text NOT NULL,
  rate_per_s double precision,
  ordered integer NOT NULL,
  filter text,
  is_on integer NOT NULL,
  deleted_at character varying(40),
  created_at character varying(40) NOT NULL,
  updated_at character varying(40) NOT NULL,
  concurrency integer,
  forward_headers text,
  previous_secret character varying(100),
  previous_secret_until character varying(40),
  transform text
);

-- table forward_jobs
CREATE TABLE forward_jobs (
  seq bigint NOT NULL DEFAULT nextval('forward_jobs_seq_seq'::regclass),
  id character varying(40) NOT NULL,
  delivery character varying(40) NOT NULL,
  hook_id character varying(16) NOT NULL,
  destination character varying(24) NOT NULL,
  state character varying(16) NOT NULL,
  attempts integer NOT NULL,
  last_status integer,
  due_at bigint,
  invocations text NOT NULL,
  ordered integer NOT NULL,
  lease_owner character varying(40),
  lease_until bigint,
  created_at character varying(40) NOT NULL,
  traceparent character varying(64)
);

-- table forwarding_allow
CREATE TABLE forwarding_allow (
  entry character varying(300) NOT NULL,
  created_at character varying(40) NOT NULL
);

-- table idempotency_keys
CREATE TABLE idempotency_keys (
  scope character varying(120) NOT NULL,
  key character varying(255) NOT NULL,
  request_hash character varying(80) NOT NULL,
  invocation character varying(40) NOT NULL,
  lease_until bigint NOT NULL,
  created_at bigint NOT NULL
);

-- table imported_server_states
CREATE TABLE imported_server_states (
  server character varying(200) NOT NULL,
  version bigint NOT NULL,
  address text NOT NULL,
  listing text NOT NULL,
  served text NOT NULL,
  held text NOT NULL,
  omitted integer NOT NULL,
  refreshed_at character varying(40) NOT NULL
);

-- table invocations
CREATE TABLE invocations (
  seq bigint NOT NULL DEFAULT nextval('invocations_seq_seq'::regclass),
  id character varying(40) NOT NULL,
  key character varying(128) NOT NULL,
  actor character varying(200) NOT NULL,
  fingerprint character varying(100),
  status character varying(24) NOT NULL,
  ok boolean NOT NULL,
  ran boolean NOT NULL,
  repairs character varying(40),
  replays character varying(40),
  source character varying(200) NOT NULL,
  created_at character varying(40) NOT NULL,
  duration_ms integer NOT NULL,
  record text NOT NULL,
  request_id character varying(128),
  trace_id character varying(32)
);

-- table knex_migrations
CREATE TABLE knex_migrations (
  id integer NOT NULL DEFAULT nextval('knex_migrations_id_seq'::regclass),
  name character varying(255),
  batch integer,
  migration_time timestamp with time zone
);

-- table knex_migrations_lock
CREATE TABLE knex_migrations_lock (
  index integer NOT NULL DEFAULT nextval('knex_migrations_lock_index_seq'::regclass),
  is_locked integer
);

-- table ledger_checkpoints
CREATE TABLE ledger_checkpoints (
  size bigint NOT NULL,
  root character varying(64) NOT NULL,
  note text NOT NULL,
  created_at character varying(40) NOT NULL
);

-- table ledger_cosignatures
CREATE TABLE ledger_cosignatures (
  size bigint NOT NULL,
  witness character varying(200) NOT NULL,
  timestamp bigint NOT NULL,
  line text NOT NULL,
  created_at character varying(32) NOT NULL
);

-- table ledger_erasures
CREATE TABLE ledger_erasures (
  seq bigint NOT NULL DEFAULT nextval('ledger_erasures_seq_seq'::regclass),
  id character varying(40) NOT NULL,
  entry_kind character varying(16) NOT NULL,
  entry character varying(40) NOT NULL,
  fields text NOT NULL,
  reason text NOT NULL,
  reason_sha256 character varying(71) NOT NULL,
  erased_at character varying(40) NOT NULL
);

-- table ledger_leaves
CREATE TABLE ledger_leaves (
  idx bigint NOT NULL,
  kind character varying(16) NOT NULL,
  entry_id character varying(40) NOT NULL,
  leaf text NOT NULL,
  leaf_hash character varying(64) NOT NULL,
  integrated_at character varying(40) NOT NULL,
  entry_seq bigint
);

-- table ledger_nodes
CREATE TABLE ledger_nodes (
  level integer NOT NULL,
  idx bigint NOT NULL,
  hash character varying(64) NOT NULL
);

-- table ledger_queue
CREATE TABLE ledger_queue (
  seq bigint NOT NULL DEFAULT nextval('ledger_queue_seq_seq'::regclass),
  kind character varying(16) NOT NULL,
  entry_id character varying(40) NOT NULL,
  entry_seq bigint
);

-- table ledger_settings
CREATE TABLE ledger_settings (
  name character varying(64) NOT NULL,
  value text NOT NULL,
  created_at character varying(40) NOT NULL
);

-- table oauth_clients
CREATE TABLE oauth_clients (
  seq bigint NOT NULL DEFAULT nextval('oauth_clients_seq_seq'::regclass),
  id character varying(200) NOT NULL,
  kind character varying(20) NOT NULL,
  name character varying(200) NOT NULL,
  redirect_uris text NOT NULL,
  auth_method character varying(32) NOT NULL,
  secret_hash character varying(64),
  metadata text NOT NULL,
  created_at character varying(40) NOT NULL
);

-- table oauth_codes
CREATE TABLE oauth_codes (
  code_hash character varying(64) NOT NULL,
  client_id character varying(200) NOT NULL,
  grant_id character varying(80) NOT NULL,
  redirect_uri text NOT NULL,
  code_challenge character varying(64) NOT NULL,
  resource text NOT NULL,
  expires_at bigint NOT NULL,
  used_at character varying(40)
);

-- table oauth_grants
CREATE TABLE oauth_grants (
  seq bigint NOT NULL DEFAULT nextval('oauth_grants_seq_seq'::regclass),
  id character varying(80) NOT NULL,
  client_id character varying(200) NOT NULL,
  resource text NOT NULL,
  moves text NOT NULL,
  keys text NOT NULL,
  created_at character varying(40) NOT NULL,
  revoked_at character varying(40),
  revoked_reason character varying(40)
);

-- table oauth_refresh_tokens
CREATE TABLE oauth_refresh_tokens (
  token_hash character varying(64) NOT NULL,
  grant_id character varying(80) NOT NULL,
  client_id character varying(200) NOT NULL,
  created_at character varying(40) NOT NULL,
  expires_at bigint NOT NULL,
  used_at character varying(40)
);

-- table run_reservations
CREATE TABLE run_reservations (
  id character varying(40) NOT NULL,
  holder character varying(40) NOT NULL,
  lease_until bigint NOT NULL,
  record text NOT NULL,
  repairs character varying(40)
);

-- table storage_probes
CREATE TABLE storage_probes (
  holder character varying(40) NOT NULL,
  at character varying(40) NOT NULL
);

-- table token_use_slots
CREATE TABLE token_use_slots (
  fingerprint character varying(40) NOT NULL,
  slot integer NOT NULL
);

-- table token_uses
CREATE TABLE token_uses (
  seq bigint NOT NULL DEFAULT nextval('token_uses_seq_seq'::regclass),
  id character varying(40) NOT NULL,
  fingerprint character varying(40) NOT NULL,
  move character varying(200) NOT NULL,
  outcome character varying(16) NOT NULL,
  code character varying(40),
  route text NOT NULL,
  at character varying(40) NOT NULL
);

-- table tool_pins
CREATE TABLE tool_pins (
  seq bigint NOT NULL DEFAULT nextval('tool_pins_seq_seq'::regclass),
  id character varying(40) NOT NULL,
  key character varying(128) NOT NULL,
  server character varying(64) NOT NULL,
  tool character varying(512) NOT NULL,
  definition_hash character varying(80) NOT NULL,
  definition text NOT NULL,
  override_hash character varying(80),
  reason character varying(16) NOT NULL,
  pinned_by character varying(200) NOT NULL,
  pinned_at character varying(40) NOT NULL
);

-- table upstream_credentials
CREATE TABLE upstream_credentials (
  upstream character varying(64) NOT NULL,
  sealed text NOT NULL,
  version integer NOT NULL,
  state character varying(16) NOT NULL,
  lease_holder character varying(64),
  lease_until bigint,
  updated_at character varying(40) NOT NULL
);

-- table webhook_actions
CREATE TABLE webhook_actions (
  seq bigint NOT NULL DEFAULT nextval('webhook_actions_seq_seq'::regclass),
  delivery character varying(40) NOT NULL,
  action character varying(128) NOT NULL,
  invocation character varying(40) NOT NULL,
  ok boolean NOT NULL,
  status character varying(24) NOT NULL,
  answer text NOT NULL,
  created_at character varying(40) NOT NULL
);

-- table webhooks
CREATE TABLE webhooks (
  id character varying(16) NOT NULL,
  name character varying(200) NOT NULL,
  on boolean NOT NULL,
  delivery_id_path character varying(220),
  created_at character varying(40) NOT NULL,
  updated_at character varying(40) NOT NULL,
  signature_scheme character varying(32),
  signature_secret text,
  signature_header character varying(100),
  require_signature boolean NOT NULL DEFAULT false,
  event_type_path character varying(220),
  signature_tolerance_s integer,
  retention_private_days double precision
);

-- index api_keys_key_hash_unique
CREATE UNIQUE INDEX api_keys_key_hash_unique ON api_keys USING btree (key_hash);

-- index api_keys_pkey
CREATE UNIQUE INDEX api_keys_pkey ON api_keys USING btree (id);

-- index approvals_id_unique
CREATE UNIQUE INDEX approvals_id_unique ON approvals USING btree (id);

-- index approvals_invocation_unique
CREATE UNIQUE INDEX approvals_invocation_unique ON approvals USING btree (invocation);

-- index approvals_pkey
CREATE UNIQUE INDEX approvals_pkey ON approvals USING btree (seq);

-- index client_rate_windows_pkey
CREATE UNIQUE INDEX client_rate_windows_pkey ON client_rate_windows USING btree (bucket, client);

-- index client_rate_windows_start
CREATE INDEX client_rate_windows_start ON client_rate_windows USING btree (window_start);

-- index content_blobs_pkey
CREATE UNIQUE INDEX content_blobs_pkey ON content_blobs USING btree (sha256);

-- index deliveries_event_type_seq
CREATE INDEX deliveries_event_type_seq ON deliveries USING btree (event_type, seq);

-- index deliveries_first_by_id
CREATE UNIQUE INDEX deliveries_first_by_id ON deliveries USING btree (hook_id, delivery_id) WHERE ((delivery_id IS NOT NULL) AND (duplicate_of IS NULL) AND ((outcome)::text = 'accepted'::text));

-- index deliveries_hook_event_type_seq
CREATE INDEX deliveries_hook_event_type_seq ON deliveries USING btree (hook_id, event_type, seq);

-- index deliveries_hook_id_seq_index
CREATE INDEX deliveries_hook_id_seq_index ON deliveries USING btree (hook_id, seq);

-- index deliveries_id_unique
CREATE UNIQUE INDEX deliveries_id_unique ON deliveries USING btree (id);

-- index deliveries_pkey
CREATE UNIQUE INDEX deliveries_pkey ON deliveries USING btree (seq);

-- index destination_circuits_pkey
CREATE UNIQUE INDEX destination_circuits_pkey ON destination_circuits USING btree (destination);

-- index destinations_hook_id_index
CREATE INDEX destinations_hook_id_index ON destinations USING btree (hook_id);

-- index destinations_pkey
CREATE UNIQUE INDEX destinations_pkey ON destinations USING btree (id);

-- index forward_jobs_delivery_index
CREATE INDEX forward_jobs_delivery_index ON forward_jobs USING btree (delivery);

-- index forward_jobs_destination_state_seq_index
CREATE INDEX forward_jobs_destination_state_seq_index ON forward_jobs USING btree (destination, state, seq);

-- index forward_jobs_id_unique
CREATE UNIQUE INDEX forward_jobs_id_unique ON forward_jobs USING btree (id);

-- index forward_jobs_pkey
CREATE UNIQUE INDEX forward_jobs_pkey ON forward_jobs USING btree (seq);

-- index forward_jobs_state_due_at_index
CREATE INDEX forward_jobs_state_due_at_index ON forward_jobs USING btree (state, due_at);

-- index forwarding_allow_pkey
CREATE UNIQUE INDEX forwarding_allow_pkey ON forwarding_allow USING btree (entry);

-- index idempotency_keys_created_at
CREATE INDEX idempotency_keys_created_at ON idempotency_keys USING btree (created_at);

-- index idempotency_keys_pkey
CREATE UNIQUE INDEX idempotency_keys_pkey ON idempotency_keys USING btree (scope, key);

-- index imported_server_states_pkey
CREATE UNIQUE INDEX imported_server_states_pkey ON imported_server_states USING btree (server);

-- index invocations_id_unique
CREATE UNIQUE INDEX invocations_id_unique ON invocations USING btree (id);

-- index invocations_key_seq_index
CREATE INDEX invocations_key_seq_index ON invocations USING btree (key, seq);

-- index invocations_pkey
CREATE UNIQUE INDEX invocations_pkey ON invocations USING btree (seq);

-- index invocations_repairs_index
CREATE INDEX invocations_repairs_index ON invocations USING btree (repairs);

-- index invocations_replays_index
CREATE INDEX invocations_replays_index ON invocations USING btree (replays);

-- index invocations_status_seq_index
CREATE INDEX invocations_status_seq_index ON invocations USING btree (status, seq);

-- index knex_migrations_lock_pkey
CREATE UNIQUE INDEX knex_migrations_lock_pkey ON knex_migrations_lock USING btree (index);

-- index knex_migrations_pkey
CREATE UNIQUE INDEX knex_migrations_pkey ON knex_migrations USING btree (id);

-- index ledger_checkpoints_pkey
CREATE UNIQUE INDEX ledger_checkpoints_pkey ON ledger_checkpoints USING btree (size);

-- index ledger_cosignatures_pkey
CREATE UNIQUE INDEX ledger_cosignatures_pkey ON ledger_cosignatures USING btree (size, witness);

-- index ledger_cosignatures_witness_size
CREATE INDEX ledger_cosignatures_witness_size ON ledger_cosignatures USING btree (witness, size);

-- index ledger_erasures_entry_unique
CREATE UNIQUE INDEX ledger_erasures_entry_unique ON ledger_erasures USING btree (entry);

-- index ledger_erasures_id_unique
CREATE UNIQUE INDEX ledger_erasures_id_unique ON ledger_erasures USING btree (id);

-- index ledger_erasures_pkey
CREATE UNIQUE INDEX ledger_erasures_pkey ON ledger_erasures USING btree (seq);

-- index ledger_leaves_kind_entry_seq_unique
CREATE UNIQUE INDEX ledger_leaves_kind_entry_seq_unique ON ledger_leaves USING btree (kind, entry_seq);

-- index ledger_leaves_pkey
CREATE UNIQUE INDEX ledger_leaves_pkey ON ledger_leaves USING btree (idx);

-- index ledger_nodes_pkey
CREATE UNIQUE INDEX ledger_nodes_pkey ON ledger_nodes USING btree (level, idx);

-- index ledger_queue_pkey
CREATE UNIQUE INDEX ledger_queue_pkey ON ledger_queue USING btree (seq);

-- index ledger_settings_pkey
CREATE UNIQUE INDEX ledger_settings_pkey ON ledger_settings USING btree (name);

-- index oauth_clients_id_unique
CREATE UNIQUE INDEX oauth_clients_id_unique ON oauth_clients USING btree (id);

-- index oauth_clients_pkey
CREATE UNIQUE INDEX oauth_clients_pkey ON oauth_clients USING btree (seq);

-- index oauth_codes_pkey
CREATE UNIQUE INDEX oauth_codes_pkey ON oauth_codes USING btree (code_hash);

-- index oauth_grants_client_id_index
CREATE INDEX oauth_grants_client_id_index ON oauth_grants USING btree (client_id);

-- index oauth_grants_id_unique
CREATE UNIQUE INDEX oauth_grants_id_unique ON oauth_grants USING btree (id);

-- index oauth_grants_pkey
CREATE UNIQUE INDEX oauth_grants_pkey ON oauth_grants USING btree (seq);

-- index oauth_refresh_tokens_grant_id_index
CREATE INDEX oauth_refresh_tokens_grant_id_index ON oauth_refresh_tokens USING btree (grant_id);

-- index oauth_refresh_tokens_pkey
CREATE UNIQUE INDEX oauth_refresh_tokens_pkey ON oauth_refresh_tokens USING btree (token_hash);

-- index run_reservations_lease_until_index
CREATE INDEX run_reservations_lease_until_index ON run_reservations USING btree (lease_until);

-- index run_reservations_pkey
CREATE UNIQUE INDEX run_reservations_pkey ON run_reservations USING btree (id);

-- index run_reservations_repairs
CREATE UNIQUE INDEX run_reservations_repairs ON run_reservations USING btree (repairs);

-- index storage_probes_pkey
CREATE UNIQUE INDEX storage_probes_pkey ON storage_probes USING btree (holder);

-- index token_use_slots_pkey
CREATE UNIQUE INDEX token_use_slots_pkey ON token_use_slots USING btree (fingerprint, slot);

-- index token_uses_fingerprint_seq_index
CREATE INDEX token_uses_fingerprint_seq_index ON token_uses USING btree (fingerprint, seq);

-- index token_uses_id_unique
CREATE UNIQUE INDEX token_uses_id_unique ON token_uses USING btree (id);

-- index token_uses_pkey
CREATE UNIQUE INDEX token_uses_pkey ON token_uses USING btree (seq);

-- index tool_pins_id_unique
CREATE UNIQUE INDEX tool_pins_id_unique ON tool_pins USING btree (id);

-- index tool_pins_pkey
CREATE UNIQUE INDEX tool_pins_pkey ON tool_pins USING btree (seq);

-- index tool_pins_server_tool_seq_index
CREATE INDEX tool_pins_server_tool_seq_index ON tool_pins USING btree (server, tool, seq);

-- index upstream_credentials_pkey
CREATE UNIQUE INDEX upstream_credentials_pkey ON upstream_credentials USING btree (upstream);

-- index webhook_actions_delivery_unique
CREATE UNIQUE INDEX webhook_actions_delivery_unique ON webhook_actions USING btree (delivery);

-- index webhook_actions_pkey
CREATE UNIQUE INDEX webhook_actions_pkey ON webhook_actions USING btree (seq);

-- index webhooks_pkey
CREATE UNIQUE INDEX webhooks_pkey ON webhooks USING btree (id);

-- trigger approvals_append_only
CREATE TRIGGER approvals_append_only BEFORE DELETE OR UPDATE ON approvals FOR EACH ROW EXECUTE FUNCTION switchyard_append_only();

-- trigger approvals_log_enqueue
CREATE TRIGGER approvals_log_enqueue AFTER INSERT ON approvals FOR EACH ROW EXECUTE FUNCTION switchyard_log_enqueue_seq('approval', 'id');

-- trigger approvals_no_truncate
CREATE TRIGGER approvals_no_truncate BEFORE TRUNCATE ON approvals FOR EACH STATEMENT EXECUTE FUNCTION switchyard_append_only();

-- trigger deliveries_append_only
CREATE TRIGGER deliveries_append_only BEFORE DELETE ON deliveries FOR EACH ROW EXECUTE FUNCTION switchyard_append_only();

-- trigger deliveries_erasure_only
CREATE TRIGGER deliveries_erasure_only BEFORE UPDATE ON deliveries FOR EACH ROW EXECUTE FUNCTION deliveries_erasure_only();

-- trigger deliveries_log_enqueue
CREATE TRIGGER deliveries_log_enqueue AFTER INSERT ON deliveries FOR EACH ROW EXECUTE FUNCTION switchyard_log_enqueue_seq('delivery', 'id');

-- trigger deliveries_no_truncate
CREATE TRIGGER deliveries_no_truncate BEFORE TRUNCATE ON deliveries FOR EACH STATEMENT EXECUTE FUNCTION switchyard_append_only();

-- trigger invocations_append_only
CREATE TRIGGER invocations_append_only BEFORE DELETE ON invocations FOR EACH ROW EXECUTE FUNCTION switchyard_append_only();

-- trigger invocations_erasure_only
CREATE TRIGGER invocations_erasure_only BEFORE UPDATE ON invocations FOR EACH ROW EXECUTE FUNCTION invocations_erasure_only();

-- trigger invocations_log_enqueue
CREATE TRIGGER invocations_log_enqueue AFTER INSERT ON invocations FOR EACH ROW EXECUTE FUNCTION switchyard_log_enqueue_seq('invocation', 'id');

-- trigger invocations_no_truncate
CREATE TRIGGER invocations_no_truncate BEFORE TRUNCATE ON invocations FOR EACH STATEMENT EXECUTE FUNCTION switchyard_append_only();

-- trigger ledger_checkpoints_append_only
CREATE TRIGGER ledger_checkpoints_append_only BEFORE DELETE OR UPDATE ON ledger_checkpoints FOR EACH ROW EXECUTE FUNCTION switchyard_append_only();

-- trigger ledger_checkpoints_no_truncate
CREATE TRIGGER ledger_checkpoints_no_truncate BEFORE TRUNCATE ON ledger_checkpoints FOR EACH STATEMENT EXECUTE FUNCTION switchyard_append_only();

-- trigger ledger_cosignatures_append_only
CREATE TRIGGER ledger_cosignatures_append_only BEFORE DELETE OR UPDATE ON ledger_cosignatures FOR EACH ROW EXECUTE FUNCTION switchyard_append_only();

-- trigger ledger_cosignatures_no_truncate
CREATE TRIGGER ledger_cosignatures_no_truncate BEFORE TRUNCATE ON ledger_cosignatures FOR EACH STATEMENT EXECUTE FUNCTION switchyard_append_only();

-- trigger ledger_erasures_append_only
CREATE TRIGGER ledger_erasures_append_only BEFORE DELETE OR UPDATE ON ledger_erasures FOR EACH ROW EXECUTE FUNCTION switchyard_append_only();

-- trigger ledger_erasures_log_enqueue
CREATE TRIGGER ledger_erasures_log_enqueue AFTER INSERT ON ledger_erasures FOR EACH ROW EXECUTE FUNCTION switchyard_log_enqueue_seq('erasure', 'id');

-- trigger ledger_erasures_no_truncate
CREATE TRIGGER ledger_erasures_no_truncate BEFORE TRUNCATE ON ledger_erasures FOR EACH STATEMENT EXECUTE FUNCTION switchyard_append_only();

-- trigger ledger_leaves_append_only
CREATE TRIGGER ledger_leaves_append_only BEFORE DELETE OR UPDATE ON ledger_leaves FOR EACH ROW EXECUTE FUNCTION switchyard_append_only();

-- trigger ledger_leaves_no_truncate
CREATE TRIGGER ledger_leaves_no_truncate BEFORE TRUNCATE ON ledger_leaves FOR EACH STATEMENT EXECUTE FUNCTION switchyard_append_only();

-- trigger ledger_nodes_append_only
CREATE TRIGGER ledger_nodes_append_only BEFORE DELETE OR UPDATE ON ledger_nodes FOR EACH ROW EXECUTE FUNCTION switchyard_append_only();

-- trigger ledger_nodes_no_truncate
CREATE TRIGGER ledger_nodes_no_truncate BEFORE TRUNCATE ON ledger_nodes FOR EACH STATEMENT EXECUTE FUNCTION switchyard_append_only();

-- trigger ledger_settings_append_only
CREATE TRIGGER ledger_settings_append_only BEFORE DELETE OR UPDATE ON ledger_settings FOR EACH ROW EXECUTE FUNCTION switchyard_append_only();

-- trigger ledger_settings_no_truncate
CREATE TRIGGER ledger_settings_no_truncate BEFORE TRUNCATE ON ledger_settings FOR EACH STATEMENT EXECUTE FUNCTION switchyard_append_only();

-- trigger token_use_slots_append_only
CREATE TRIGGER token_use_slots_append_only BEFORE DELETE OR UPDATE ON token_use_slots FOR EACH ROW EXECUTE FUNCTION switchyard_append_only();

-- trigger token_use_slots_no_truncate
CREATE TRIGGER token_use_slots_no_truncate BEFORE TRUNCATE ON token_use_slots FOR EACH STATEMENT EXECUTE FUNCTION switchyard_append_only();

-- trigger token_uses_append_only
CREATE TRIGGER token_uses_append_only BEFORE DELETE OR UPDATE ON token_uses FOR EACH ROW EXECUTE FUNCTION switchyard_append_only();

-- trigger token_uses_log_enqueue
CREATE TRIGGER token_uses_log_enqueue AFTER INSERT ON token_uses FOR EACH ROW EXECUTE FUNCTION switchyard_log_enqueue_seq('token_use', 'id');

-- trigger token_uses_no_truncate
CREATE TRIGGER token_uses_no_truncate BEFORE TRUNCATE ON token_uses FOR EACH STATEMENT EXECUTE FUNCTION switchyard_append_only();

-- trigger tool_pins_append_only
CREATE TRIGGER tool_pins_append_only BEFORE DELETE OR UPDATE ON tool_pins FOR EACH ROW EXECUTE FUNCTION switchyard_append_only();

-- trigger tool_pins_log_enqueue
CREATE TRIGGER tool_pins_log_enqueue AFTER INSERT ON tool_pins FOR EACH ROW EXECUTE FUNCTION switchyard_log_enqueue_seq('tool_definition', 'id');

-- trigger tool_pins_no_truncate
CREATE TRIGGER tool_pins_no_truncate BEFORE TRUNCATE ON tool_pins FOR EACH STATEMENT EXECUTE FUNCTION switchyard_append_only();

-- trigger webhook_actions_append_only
CREATE TRIGGER webhook_actions_append_only BEFORE DELETE OR UPDATE ON webhook_actions FOR EACH ROW EXECUTE FUNCTION switchyard_append_only();

-- trigger webhook_actions_log_enqueue
CREATE TRIGGER webhook_actions_log_enqueue AFTER INSERT ON webhook_actions FOR EACH ROW EXECUTE FUNCTION switchyard_log_enqueue_seq('action', 'delivery');

-- trigger webhook_actions_no_truncate
CREATE TRIGGER webhook_actions_no_truncate BEFORE TRUNCATE ON webhook_actions FOR EACH STATEMENT EXECUTE FUNCTION switchyard_append_only();

-- function deliveries_erasure_only
CREATE OR REPLACE FUNCTION deliveries_erasure_only()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
       BEGIN
         IF EXISTS (SELECT 1 FROM ledger_erasures e WHERE e.entry = OLD.id AND e.entry_kind = 'delivery') AND NEW."seq" IS NOT DISTINCT FROM OLD."seq" AND NEW."id" IS NOT DISTINCT FROM OLD."id" AND NEW."hook_id" IS NOT DISTINCT FROM OLD."hook_id" AND NEW."received_at" IS NOT DISTINCT FROM OLD."received_at" AND NEW."method" IS NOT DISTINCT FROM OLD."method" AND NEW."path" IS NOT DISTINCT FROM OLD."path" AND NEW."body_size" IS NOT DISTINCT FROM OLD."body_size" AND NEW."client_address" IS NOT DISTINCT FROM OLD."client_address" AND NEW."delivery_id" IS NOT DISTINCT FROM OLD."delivery_id" AND NEW."delivery_id_rule" IS NOT DISTINCT FROM OLD."delivery_id_rule" AND NEW."outcome" IS NOT DISTINCT FROM OLD."outcome" AND NEW."refusal" IS NOT DISTINCT FROM OLD."refusal" AND NEW."action" IS NOT DISTINCT FROM OLD."action" AND NEW."duplicate_of" IS NOT DISTINCT FROM OLD."duplicate_of" AND NEW."signature" IS NOT DISTINCT FROM OLD."signature" AND NEW."request_id" IS NOT DISTINCT FROM OLD."request_id" AND NEW."event_type" IS NOT DISTINCT FROM OLD."event_type" AND NEW."event_type_rule" IS NOT DISTINCT FROM OLD."event_type_rule" AND NEW."body" IS NULL AND NEW."body_sha256" IS NULL AND NEW."headers" = '[]' AND NEW."query" = '' THEN RETURN NEW; END IF;
         RAISE EXCEPTION 'ledger is append-only: UPDATE on deliveries is allowed only to erase an entry with an erasure entry' USING ERRCODE = 'restrict_violation';
       END $function$;

-- function invocations_erasure_only
CREATE OR REPLACE FUNCTION invocations_erasure_only()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
       BEGIN
         IF EXISTS (SELECT 1 FROM ledger_erasures e WHERE e.entry = OLD.id AND e.entry_kind = 'invocation') AND NEW."seq" IS NOT DISTINCT FROM OLD."seq" AND NEW."id" IS NOT DISTINCT FROM OLD."id" AND NEW."key" IS NOT DISTINCT FROM OLD."key" AND NEW."actor" IS NOT DISTINCT FROM OLD."actor" AND NEW."fingerprint" IS NOT DISTINCT FROM OLD."fingerprint" AND NEW."status" IS NOT DISTINCT FROM OLD."status" AND NEW."ok" IS NOT DISTINCT FROM OLD."ok" AND NEW."ran" IS NOT DISTINCT FROM OLD."ran" AND NEW."repairs" IS NOT DISTINCT FROM OLD."repairs" AND NEW."replays" IS NOT DISTINCT FROM OLD."replays" AND NEW."source" IS NOT DISTINCT FROM OLD."source" AND NEW."created_at" IS NOT DISTINCT FROM OLD."created_at" AND NEW."duration_ms" IS NOT DISTINCT FROM OLD."duration_ms" AND NEW."request_id" IS NOT DISTINCT FROM OLD."request_id" AND (NEW."record"::jsonb - ARRAY['args', 'body', 'content', 'logs', 'result', 'structured_content']) = (OLD."record"::jsonb - ARRAY['args', 'body', 'content', 'logs', 'result', 'structured_content']) AND coalesce(NEW."record"::jsonb -> 'args', 'null'::jsonb) = 'null'::jsonb AND coalesce(NEW."record"::jsonb -> 'body', 'null'::jsonb) = 'null'::jsonb AND coalesce(NEW."record"::jsonb -> 'content', 'null'::jsonb) = 'null'::jsonb AND coalesce(NEW."record"::jsonb -> 'logs', 'null'::jsonb) = 'null'::jsonb AND coalesce(NEW."record"::jsonb -> 'result', 'null'::jsonb) = 'null'::jsonb AND coalesce(NEW."record"::jsonb -> 'structured_content', 'null'::jsonb) = 'null'::jsonb THEN RETURN NEW; END IF;
         RAISE EXCEPTION 'ledger is append-only: UPDATE on invocations is allowed only to erase an entry with an erasure entry' USING ERRCODE = 'restrict_violation';
       END $function$;

-- function switchyard_append_only
CREATE OR REPLACE FUNCTION switchyard_append_only()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
     BEGIN
       RAISE EXCEPTION 'ledger is append-only: % on % is not allowed', TG_OP, TG_TABLE_NAME USING ERRCODE = 'restrict_violation';
     END $function$;

-- function switchyard_log_enqueue
CREATE OR REPLACE FUNCTION switchyard_log_enqueue()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
     BEGIN
       INSERT INTO ledger_queue (kind, entry_id) VALUES (TG_ARGV[0], to_jsonb(NEW) ->> TG_ARGV[1]);
       RETURN NULL;
     END $function$;

-- function switchyard_log_enqueue_seq
CREATE OR REPLACE FUNCTION switchyard_log_enqueue_seq()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
     DECLARE row jsonb := to_jsonb(NEW);
     BEGIN
       INSERT INTO ledger_queue (kind, entry_id, entry_seq) VALUES (TG_ARGV[0], row ->> TG_ARGV[1], (row ->> 'seq')::bigint);
       RETURN NULL;
     END $function$;
