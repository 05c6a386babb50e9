/**
 * Paused builds (docs/gating.md#paused-builds, `zuul.pause`): a build request can be `paused` between its
 * run and post-run phases. The engine asks for the resume with `resume_requested`; what the
 * executor needs to continue in the kept workspace is in `pause_state`, so any executor process
 * on the same host can resume the build, also after a restart.
 */
import type { Knex } from 'knex';

export const name = '0010-build-request-pause';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('build_requests', (t) => {
    t.boolean('resume_requested').notNullable().defaultTo(false);
    t.jsonb('pause_state');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('build_requests', (t) => {
    t.dropColumns('resume_requested', 'pause_state');
  });
}
