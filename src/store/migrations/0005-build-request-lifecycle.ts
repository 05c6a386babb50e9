/**
 * Executor bookkeeping on build requests: when a request was started and completed, its
 * result, where its log is published, and which result a requested cancel should record
 * (CANCELED or ABORTED, chosen by the engine). The worker index serves the cancel poll.
 */
import type { Knex } from 'knex';

export const name = '0005-build-request-lifecycle';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('build_requests', (t) => {
    t.timestamp('started', { useTz: true });
    t.timestamp('completed', { useTz: true });
    t.text('result');
    t.text('log_url');
    t.text('cancel_result');
    t.index(['worker', 'state'], 'build_requests_worker_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('build_requests', (t) => {
    t.dropIndex(['worker', 'state'], 'build_requests_worker_idx');
    t.dropColumns('started', 'completed', 'result', 'log_url', 'cancel_result');
  });
}
