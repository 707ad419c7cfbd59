// One migration: a name (recorded by knex in knex_migrations, so never renamed), and its two ways.
import type { Knex } from 'knex';

export interface Migration {
  name: string;
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}
