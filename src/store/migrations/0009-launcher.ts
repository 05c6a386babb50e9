/**
 * Launcher runtime records (docs/launcher.md#node-and-request-states, docs/launcher.md#image-states,
 * docs/launcher.md#reference-behaviour): what the initial tables lack for nodeset alternatives, relative priority per
 * project, node timing (ready/hold), the image a node boots from, and upload sharing between providers.
 */
import type { Knex } from 'knex';

export const name = '0009-launcher';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('nodeset_requests', (t) => {
    t.text('project');
    /** Every nodeset alternative (label lists); `labels` is the one at `alternative_index`. */
    t.jsonb('alternatives').notNullable().defaultTo('[]');
    t.integer('alternative_index').notNullable().defaultTo(0);
    t.text('preferred_provider');
    t.text('failure_reason');
    t.index(['tenant', 'pipeline_name', 'project', 'state'], 'nodeset_requests_project_idx');
  });
  await knex.schema.alterTable('nodes', (t) => {
    t.text('connection');
    t.text('label_config_hash');
    t.text('image_upload_uuid');
    t.timestamp('created', { useTz: true });
    t.timestamp('ready_time', { useTz: true });
    t.timestamp('hold_time', { useTz: true });
    t.index(['image_upload_uuid'], 'nodes_image_upload_idx');
    t.index(['provider', 'state'], 'nodes_provider_state_idx');
  });
  // One node per static host at a time (and per local workspace): the store refuses a double assignment.
  await knex.raw(
    'CREATE UNIQUE INDEX nodes_provider_external_id_key ON nodes (provider, external_id) WHERE external_id IS NOT NULL',
  );
  await knex.schema.alterTable('image_build_artifacts', (t) => {
    t.text('name');
    t.text('project_canonical_name');
    t.text('project_branch');
    t.text('artifact_name');
    t.unique(['build_uuid', 'format', 'canonical_name'], { indexName: 'image_build_artifacts_build_format_key' });
  });
  await knex.schema.alterTable('image_uploads', (t) => {
    t.jsonb('providers').notNullable().defaultTo('[]');
    t.text('config_hash');
    t.text('path');
    t.index(['canonical_name', 'state'], 'image_uploads_image_state_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('image_uploads', (t) => {
    t.dropIndex([], 'image_uploads_image_state_idx');
    t.dropColumn('providers');
    t.dropColumn('config_hash');
    t.dropColumn('path');
  });
  await knex.schema.alterTable('image_build_artifacts', (t) => {
    t.dropUnique([], 'image_build_artifacts_build_format_key');
    t.dropColumn('name');
    t.dropColumn('project_canonical_name');
    t.dropColumn('project_branch');
    t.dropColumn('artifact_name');
  });
  await knex.raw('DROP INDEX IF EXISTS nodes_provider_external_id_key');
  await knex.schema.alterTable('nodes', (t) => {
    t.dropIndex([], 'nodes_image_upload_idx');
    t.dropIndex([], 'nodes_provider_state_idx');
    t.dropColumn('connection');
    t.dropColumn('label_config_hash');
    t.dropColumn('image_upload_uuid');
    t.dropColumn('created');
    t.dropColumn('ready_time');
    t.dropColumn('hold_time');
  });
  await knex.schema.alterTable('nodeset_requests', (t) => {
    t.dropIndex([], 'nodeset_requests_project_idx');
    t.dropColumn('project');
    t.dropColumn('alternatives');
    t.dropColumn('alternative_index');
    t.dropColumn('preferred_provider');
    t.dropColumn('failure_reason');
  });
}
