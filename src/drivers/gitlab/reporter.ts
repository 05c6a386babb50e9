/**
 * The GitLab reporter (docs/gitlab.md#reporters): for each reporter of the phase a note on the
 * merge request (`comment`, default true), an approval given or taken back (`approval`), labels
 * added or removed (`label`, `unlabel`). `merge: true` makes the engine merge on success through
 * the merger port (src/drivers/gitlab/merge.ts). Each call is retried by the connection on
 * transient failures (src/drivers/gitlab/connection.ts); a report that still fails is logged.
 */
import { sendFailure, throwIfNotSent, type ItemReport } from '../../engine/ports/reporter';
import type { DriverLog } from '../driver';
import type { GitLabConnection } from './connection';

function pathOf(project: string, connection: GitLabConnection): string {
  const prefix = `${connection.canonicalHostname}/`;
  return project.startsWith(prefix) ? project.slice(prefix.length) : project;
}

function strs(value: unknown): string[] {
  const list = value === undefined || value === null ? [] : Array.isArray(value) ? value : [value];
  return list.map(String);
}

export class GitLabReporter {
  constructor(
    private readonly connections: ReadonlyMap<string, GitLabConnection>,
    private readonly log: DriverLog,
  ) {}

  async report(report: ItemReport): Promise<void> {
    const change = report.change;
    if (change.number === null) {
      return;
    }
    const failures: string[] = [];
    for (const reporter of report.reporters) {
      const connection = this.connections.get(reporter.connection);
      if (!connection) {
        continue;
      }
      const project = pathOf(change.project, connection);
      const options = reporter.options;
      try {
        const text =
          report.message !== '' ? report.message : report.phase === 'start' ? (report.startMessage ?? '') : '';
        if (options.comment !== false && text !== '') {
          await connection.comment(project, change.number, text);
        }
        if (options.approval === true) {
          await connection.approve(project, change.number, change.patchset);
        } else if (options.approval === false) {
          await connection.unapprove(project, change.number);
        }
        const add = strs(options.label);
        const remove = strs(options.unlabel);
        if (add.length > 0 || remove.length > 0) {
          await connection.labels(project, change.number, add, remove);
        }
      } catch (err) {
        this.log.warn({ err: String(err), pipeline: report.pipeline, change: change.url }, 'GitLab report failed');
        failures.push(sendFailure(`GitLab report on ${change.url ?? change.ref} (${reporter.connection})`, err));
      }
    }
    throwIfNotSent(failures);
  }
}
