/** Check run ids Sluice created on GitHub (docs/github.md#reporters); the only code touching `github_check_runs`. */
import type { Knex } from 'knex';

/** One check run: a pipeline's (`name`) run on a commit of a repository of a connection. */
export interface CheckRunKey {
  connection: string;
  repository: string;
  headSha: string;
  name: string;
}

export class GitHubCheckRunRepository {
  constructor(private readonly knex: Knex) {}

  /** The check run id, or null when none was created. */
  async find(key: CheckRunKey, trx?: Knex.Transaction): Promise<number | null> {
    const row = await (trx ?? this.knex)('github_check_runs')
      .where({ connection: key.connection, repository: key.repository, head_sha: key.headSha, name: key.name })
      .first<{ check_run_id: string | number } | undefined>('check_run_id');
    return row ? Number(row.check_run_id) : null;
  }

  async save(key: CheckRunKey, id: number, at: Date, trx?: Knex.Transaction): Promise<void> {
    await (trx ?? this.knex)('github_check_runs')
      .insert({
        connection: key.connection,
        repository: key.repository,
        head_sha: key.headSha,
        name: key.name,
        check_run_id: id,
        created_at: at,
      })
      .onConflict(['connection', 'repository', 'head_sha', 'name'])
      .merge(['check_run_id', 'created_at']);
  }
}
