/**
 * The whole persistent model of Sluice (docs/development.md#storage). Column choices follow the reference
 * engine's SQL reporter (docs/gating.md#build-history) where it applies, with these deliberate changes:
 * - ref columns are nullable and unique with NULLS NOT DISTINCT (no '' / 0 sentinels);
 * - builds carry their tenant so tenant-wide lists are one index range scan;
 * - times are timestamptz, free-form data is jsonb.
 * Every REST filter (docs/rest.md#builds, docs/rest.md#buildsets) has an index.
 */
import type { Knex } from 'knex';

export const name = '0001-initial';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('refs', (t) => {
    t.bigIncrements('id');
    t.text('project').notNullable();
    t.text('ref').notNullable();
    t.text('ref_url');
    t.integer('change');
    t.text('patchset');
    t.text('oldrev');
    t.text('newrev');
    t.text('branch');
    t.index(['project'], 'refs_project_idx');
    t.index(['ref'], 'refs_ref_idx');
    t.index(['change'], 'refs_change_idx');
    t.index(['patchset'], 'refs_patchset_idx');
    t.index(['oldrev'], 'refs_oldrev_idx');
    t.index(['newrev'], 'refs_newrev_idx');
    t.index(['branch'], 'refs_branch_idx');
  });
  await knex.raw(
    'ALTER TABLE refs ADD CONSTRAINT refs_unique UNIQUE NULLS NOT DISTINCT (project, ref, change, patchset, oldrev, newrev)',
  );

  await knex.schema.createTable('buildsets', (t) => {
    t.bigIncrements('id');
    t.text('uuid').notNullable().unique('buildsets_uuid_key');
    t.text('tenant').notNullable();
    t.text('pipeline').notNullable();
    t.text('result');
    t.text('message');
    t.text('event_id');
    t.timestamp('event_timestamp', { useTz: true });
    t.timestamp('first_build_start_time', { useTz: true });
    t.timestamp('last_build_end_time', { useTz: true });
    t.timestamp('created', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['tenant', 'id'], 'buildsets_tenant_id_idx');
    t.index(['tenant', 'pipeline', 'id'], 'buildsets_tenant_pipeline_idx');
    t.index(['tenant', 'result', 'id'], 'buildsets_tenant_result_idx');
    t.index(['updated'], 'buildsets_updated_idx');
  });

  await knex.schema.createTable('buildset_refs', (t) => {
    t.bigInteger('buildset_id').notNullable().references('buildsets.id').onDelete('CASCADE');
    t.bigInteger('ref_id').notNullable().references('refs.id');
    t.primary(['buildset_id', 'ref_id']);
    t.index(['ref_id', 'buildset_id'], 'buildset_refs_ref_idx');
  });

  await knex.schema.createTable('buildset_events', (t) => {
    t.bigIncrements('id');
    t.bigInteger('buildset_id').notNullable().references('buildsets.id').onDelete('CASCADE');
    t.timestamp('event_time', { useTz: true }).notNullable();
    t.text('event_type').notNullable();
    t.text('description');
    t.index(['buildset_id'], 'buildset_events_buildset_idx');
  });

  await knex.schema.createTable('builds', (t) => {
    t.bigIncrements('id');
    t.bigInteger('buildset_id').notNullable().references('buildsets.id').onDelete('CASCADE');
    t.text('tenant').notNullable();
    t.text('uuid').notNullable();
    t.text('job_name').notNullable();
    t.text('result');
    t.timestamp('start_time', { useTz: true });
    t.timestamp('end_time', { useTz: true });
    t.boolean('voting').notNullable().defaultTo(true);
    t.text('log_url');
    t.text('error_detail');
    t.boolean('final').notNullable().defaultTo(false);
    t.boolean('held').notNullable().defaultTo(false);
    t.text('nodeset');
    t.bigInteger('ref_id').references('refs.id');
    t.integer('attempt').notNullable().defaultTo(1);
    t.index(['tenant', 'id'], 'builds_tenant_id_idx');
    t.index(['uuid'], 'builds_uuid_idx');
    t.index(['job_name', 'buildset_id'], 'builds_job_name_buildset_idx');
    t.index(['buildset_id'], 'builds_buildset_idx');
    t.index(['ref_id'], 'builds_ref_idx');
    t.index(['end_time'], 'builds_end_time_idx');
    t.index(['tenant', 'result', 'id'], 'builds_tenant_result_idx');
    t.index(['tenant', 'job_name', 'id'], 'builds_tenant_job_idx');
  });

  await knex.schema.createTable('artifacts', (t) => {
    t.bigIncrements('id');
    t.bigInteger('build_id').notNullable().references('builds.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('url').notNullable();
    t.jsonb('metadata');
    t.index(['build_id'], 'artifacts_build_idx');
  });

  await knex.schema.createTable('provides', (t) => {
    t.bigIncrements('id');
    t.bigInteger('build_id').notNullable().references('builds.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.index(['build_id'], 'provides_build_idx');
    t.index(['name'], 'provides_name_idx');
  });

  await knex.schema.createTable('build_events', (t) => {
    t.bigIncrements('id');
    t.bigInteger('build_id').notNullable().references('builds.id').onDelete('CASCADE');
    t.timestamp('event_time', { useTz: true }).notNullable();
    t.text('event_type').notNullable();
    t.text('description');
    t.index(['build_id'], 'build_events_build_idx');
  });

  await knex.schema.createTable('system_events', (t) => {
    t.bigIncrements('id');
    t.text('event_id').notNullable().unique('system_events_event_id_key');
    t.text('tenant');
    t.text('event_type').notNullable();
    t.timestamp('event_time', { useTz: true }).notNullable();
    t.text('description').notNullable();
    t.jsonb('data');
    t.index(['tenant', 'id'], 'system_events_tenant_idx');
    t.index(['tenant', 'event_type', 'id'], 'system_events_tenant_type_idx');
  });

  // Durable engine input: trigger, management and result events, processed in order per tenant.
  await knex.schema.createTable('engine_events', (t) => {
    t.bigIncrements('id');
    t.text('tenant').notNullable();
    t.text('category').notNullable(); // trigger | management | result
    t.text('event_type').notNullable();
    t.jsonb('payload').notNullable();
    t.timestamp('created', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('processed', { useTz: true });
    t.text('outcome');
    t.index(['tenant', 'category', 'id'], 'engine_events_pending_idx', {
      predicate: knex.whereNull('processed'),
    });
  });

  await knex.schema.createTable('tenant_state', (t) => {
    t.text('tenant').primary();
    t.boolean('trigger_queue_discarding').notNullable().defaultTo(false);
    t.boolean('trigger_queue_paused').notNullable().defaultTo(false);
    t.boolean('result_queue_paused').notNullable().defaultTo(false);
    t.text('reason');
    t.text('layout_uuid');
    t.timestamp('last_reconfigured', { useTz: true });
    t.timestamp('updated', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('pipeline_state', (t) => {
    t.text('tenant').notNullable();
    t.text('pipeline').notNullable();
    t.text('state').notNullable().defaultTo('normal');
    t.boolean('disabled').notNullable().defaultTo(false);
    t.integer('consecutive_failures').notNullable().defaultTo(0);
    t.primary(['tenant', 'pipeline']);
  });

  await knex.schema.createTable('change_queues', (t) => {
    t.bigIncrements('id');
    t.text('tenant').notNullable();
    t.text('pipeline').notNullable();
    t.text('name').notNullable();
    t.integer('window').notNullable().defaultTo(0);
    t.integer('window_floor').notNullable().defaultTo(3);
    t.integer('window_ceiling');
    t.jsonb('projects').notNullable().defaultTo('[]');
    t.index(['tenant', 'pipeline'], 'change_queues_pipeline_idx');
  });

  await knex.schema.createTable('queue_items', (t) => {
    t.bigIncrements('id');
    t.text('uuid').notNullable().unique('queue_items_uuid_key');
    t.text('tenant').notNullable();
    t.text('pipeline').notNullable();
    t.bigInteger('queue_id').notNullable().references('change_queues.id').onDelete('CASCADE');
    t.integer('position').notNullable();
    t.text('item_ahead_uuid');
    t.jsonb('changes').notNullable(); // [{project, ref, change, patchset, branch, oldrev, newrev, url, owner}]
    t.boolean('live').notNullable().defaultTo(true);
    t.boolean('active').notNullable().defaultTo(false);
    t.text('state').notNullable().defaultTo('waiting');
    t.text('buildset_uuid');
    t.jsonb('failing_reasons').notNullable().defaultTo('[]');
    t.jsonb('job_graph');
    t.text('event_id');
    t.timestamp('enqueue_time', { useTz: true }).notNullable();
    t.timestamp('dequeue_time', { useTz: true });
    t.text('dequeue_reason');
    t.jsonb('data').notNullable().defaultTo('{}');
    t.index(['tenant', 'pipeline', 'queue_id', 'position'], 'queue_items_queue_idx');
  });

  await knex.schema.createTable('queue_item_jobs', (t) => {
    t.bigIncrements('id');
    t.bigInteger('item_id').notNullable().references('queue_items.id').onDelete('CASCADE');
    t.text('job_name').notNullable();
    t.text('state').notNullable().defaultTo('waiting');
    t.text('waiting_status');
    t.text('build_uuid');
    t.integer('tries').notNullable().defaultTo(0);
    t.text('result');
    t.text('nodeset_request_uuid');
    t.jsonb('frozen').notNullable().defaultTo('{}');
    t.unique(['item_id', 'job_name'], { indexName: 'queue_item_jobs_item_job_key' });
  });

  // Work queue for executors: claimed with FOR UPDATE SKIP LOCKED.
  await knex.schema.createTable('build_requests', (t) => {
    t.bigIncrements('id');
    t.text('build_uuid').notNullable().unique('build_requests_build_uuid_key');
    t.text('tenant').notNullable();
    t.text('state').notNullable().defaultTo('requested');
    t.integer('precedence').notNullable().defaultTo(200);
    t.jsonb('params').notNullable();
    t.text('worker');
    t.boolean('cancel_requested').notNullable().defaultTo(false);
    t.timestamp('created', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['state', 'precedence', 'id'], 'build_requests_claim_idx');
  });

  await knex.schema.createTable('nodeset_requests', (t) => {
    t.bigIncrements('id');
    t.text('uuid').notNullable().unique('nodeset_requests_uuid_key');
    t.text('tenant').notNullable();
    t.text('state').notNullable().defaultTo('requested');
    t.text('pipeline_name');
    t.text('buildset_uuid');
    t.text('job_name');
    t.jsonb('labels').notNullable().defaultTo('[]');
    t.integer('priority').notNullable().defaultTo(200);
    t.integer('relative_priority').notNullable().defaultTo(0);
    t.text('zuul_event_id');
    t.jsonb('image_names');
    t.text('image_upload_uuid');
    t.jsonb('provider_node_data').notNullable().defaultTo('[]');
    t.text('lock_holder');
    t.timestamp('request_time', { useTz: true }).notNullable();
    t.timestamp('state_time', { useTz: true }).notNullable();
    t.index(['tenant', 'id'], 'nodeset_requests_tenant_idx');
    t.index(['state', 'priority', 'relative_priority', 'id'], 'nodeset_requests_claim_idx');
  });

  await knex.schema.createTable('nodes', (t) => {
    t.bigIncrements('id');
    t.text('uuid').notNullable().unique('nodes_uuid_key');
    t.text('tenant');
    t.text('provider');
    t.text('label').notNullable();
    t.text('state').notNullable();
    t.timestamp('state_time', { useTz: true }).notNullable();
    t.text('request_uuid');
    t.text('connection_type');
    t.text('external_id');
    t.text('interface_ip');
    t.text('host');
    t.integer('port');
    t.text('username');
    t.text('comment');
    t.integer('hold_expiration');
    t.text('hold_request_id');
    t.integer('max_ready_age');
    t.text('lock_holder');
    t.jsonb('data').notNullable().defaultTo('{}');
    t.index(['tenant', 'id'], 'nodes_tenant_idx');
    t.index(['state', 'label'], 'nodes_state_label_idx');
    t.index(['request_uuid'], 'nodes_request_idx');
  });

  await knex.schema.createTable('autohold_requests', (t) => {
    t.bigIncrements('id');
    t.text('tenant').notNullable();
    t.text('project').notNullable();
    t.text('job').notNullable();
    t.text('ref_filter').notNullable().defaultTo('.*');
    t.text('reason').notNullable().defaultTo('');
    t.integer('max_count').notNullable().defaultTo(1);
    t.integer('current_count').notNullable().defaultTo(0);
    t.integer('node_expiration').notNullable().defaultTo(0);
    t.timestamp('expired', { useTz: true });
    t.jsonb('nodes').notNullable().defaultTo('[]');
    t.timestamp('created', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['tenant', 'project', 'job'], 'autohold_requests_match_idx');
  });

  await knex.schema.createTable('semaphore_holders', (t) => {
    t.bigIncrements('id');
    t.text('tenant');
    t.text('semaphore').notNullable();
    t.boolean('global').notNullable().defaultTo(false);
    t.text('holder_tenant').notNullable();
    t.text('buildset_uuid').notNullable();
    t.text('job_name').notNullable();
    t.timestamp('acquired', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['tenant', 'semaphore'], 'semaphore_holders_semaphore_idx');
    t.unique(['semaphore', 'global', 'tenant', 'buildset_uuid', 'job_name'], { indexName: 'semaphore_holders_unique' });
  });

  await knex.schema.createTable('image_build_artifacts', (t) => {
    t.bigIncrements('id');
    t.text('uuid').notNullable().unique('image_build_artifacts_uuid_key');
    t.text('tenant').notNullable();
    t.text('canonical_name').notNullable(); // image canonical name
    t.text('build_uuid');
    t.text('format').notNullable();
    t.text('md5sum');
    t.text('sha256');
    t.text('url');
    t.text('state');
    t.timestamp('state_time', { useTz: true }).notNullable();
    t.timestamp('timestamp', { useTz: true }).notNullable();
    t.boolean('validated').notNullable().defaultTo(false);
    t.text('lock_holder');
    t.index(['tenant', 'canonical_name'], 'image_build_artifacts_image_idx');
  });

  await knex.schema.createTable('image_uploads', (t) => {
    t.bigIncrements('id');
    t.text('uuid').notNullable().unique('image_uploads_uuid_key');
    t.text('artifact_uuid').notNullable().references('image_build_artifacts.uuid').onDelete('CASCADE');
    t.text('canonical_name').notNullable();
    t.text('endpoint_name').notNullable();
    t.text('external_id');
    t.text('state').notNullable().defaultTo('pending');
    t.timestamp('state_time', { useTz: true }).notNullable();
    t.timestamp('timestamp', { useTz: true }).notNullable();
    t.boolean('validated').notNullable().defaultTo(false);
    t.text('lock_holder');
    t.index(['artifact_uuid'], 'image_uploads_artifact_idx');
  });

  // Key material: private parts are stored encrypted (see the Security issue).
  await knex.schema.createTable('keys', (t) => {
    t.bigIncrements('id');
    t.text('kind').notNullable(); // secrets | project-ssh | tenant-ssh
    t.text('owner').notNullable(); // project canonical name or tenant name
    t.text('public_key').notNullable();
    t.text('private_key_encrypted').notNullable();
    t.timestamp('created', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['kind', 'owner'], { indexName: 'keys_kind_owner_key' });
  });

  await knex.schema.createTable('components', (t) => {
    t.text('id').primary();
    t.text('kind').notNullable(); // api | scheduler | executor | launcher
    t.text('hostname').notNullable();
    t.integer('pid').notNullable();
    t.text('state').notNullable();
    t.text('version').notNullable();
    t.timestamp('started', { useTz: true }).notNullable();
    t.timestamp('heartbeat', { useTz: true }).notNullable();
    t.jsonb('data').notNullable().defaultTo('{}');
    t.index(['kind'], 'components_kind_idx');
  });

  await knex.schema.createTable('config_errors', (t) => {
    t.bigIncrements('id');
    t.text('tenant').notNullable();
    t.text('key_hash').notNullable();
    t.text('project');
    t.text('branch');
    t.text('path');
    t.integer('line');
    t.text('severity').notNullable();
    t.text('name').notNullable();
    t.text('error').notNullable();
    t.text('short_error').notNullable();
    t.timestamp('first_seen', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['tenant', 'key_hash'], { indexName: 'config_errors_tenant_key' });
    t.index(['tenant', 'project', 'branch'], 'config_errors_project_idx');
    t.index(['tenant', 'severity'], 'config_errors_severity_idx');
    t.index(['tenant', 'name'], 'config_errors_name_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  const tables = [
    'config_errors',
    'components',
    'keys',
    'image_uploads',
    'image_build_artifacts',
    'semaphore_holders',
    'autohold_requests',
    'nodes',
    'nodeset_requests',
    'build_requests',
    'queue_item_jobs',
    'queue_items',
    'change_queues',
    'pipeline_state',
    'tenant_state',
    'engine_events',
    'system_events',
    'build_events',
    'provides',
    'artifacts',
    'builds',
    'buildset_events',
    'buildset_refs',
    'buildsets',
    'refs',
  ];
  for (const table of tables) {
    await knex.schema.dropTableIfExists(table);
  }
}
