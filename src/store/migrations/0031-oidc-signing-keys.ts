/**
 * The signing keys of the OIDC tokens Sluice issues (docs/security.md#oidc-tokens): per algorithm,
 * versions 0, 1, ... (a rotation adds the next); the private key is encrypted by the auth layer
 * like the other stored private keys.
 */
import type { Knex } from 'knex';

export const name = '0031-oidc-signing-keys';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('oidc_signing_keys', (table) => {
    table.text('algorithm').notNullable();
    table.integer('version').notNullable();
    table.text('public_key').notNullable();
    table.text('private_key_encrypted').notNullable();
    table.timestamp('created', { useTz: true }).notNullable();
    table.primary(['algorithm', 'version']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('oidc_signing_keys');
}
