// knex's PostgreSQL client class, which knex's typings do not export (src/store/prepared-statements.ts extends it).
declare module 'knex/lib/dialects/postgres' {
  import type { Client } from 'knex';
  const ClientPg: typeof Client;
  export = ClientPg;
}
