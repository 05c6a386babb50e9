/**
 * GitHub webhook payloads -> the engine's trigger events (docs/github.md#trigger-events), with
 * the reference's event and action names: `pull_request` (opened, changed, closed, reopened,
 * labeled, unlabeled, edited, comment, status), `pull_request_review` (submitted, dismissed),
 * `push` and `check_run` (requested).
 */
import type { TriggerEvent } from '../../model/engine-events';
import type { GitHubConnection } from './connection';

/** A trigger event of a repository (its full name; the caller makes it canonical). */
export type RepositoryTrigger = TriggerEvent & { project: string };

type Payload = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const PR_ACTIONS: Record<string, string> = {
  opened: 'opened',
  synchronize: 'changed',
  closed: 'closed',
  reopened: 'reopened',
  labeled: 'labeled',
  unlabeled: 'unlabeled',
  edited: 'edited',
};

/** The trigger events of one delivery; an empty list when the event means nothing to the engine. */
export async function triggersOf(
  connection: GitHubConnection,
  eventType: string,
  payload: Payload,
  timestamp: string,
): Promise<RepositoryTrigger[]> {
  const repository = String(payload.repository?.full_name ?? '');
  const account = payload.sender?.login as string | undefined;
  const base = { project: repository, connection: connection.name, timestamp, account };
  const pr = (number: number, branch: string | undefined, fields: Partial<TriggerEvent>): RepositoryTrigger => ({
    ...base,
    type: 'pull_request',
    change: number,
    ...(branch === undefined ? {} : { branch }),
    ...fields,
  });
  switch (eventType) {
    case 'pull_request': {
      const action = PR_ACTIONS[String(payload.action)];
      if (!action) {
        return [];
      }
      const pull = payload.pull_request;
      return [
        pr(pull.number, pull.base?.ref, {
          action,
          patchset: pull.head?.sha,
          ...(payload.label?.name ? { label: String(payload.label.name) } : {}),
        }),
      ];
    }
    case 'issue_comment': {
      if (payload.action !== 'created' || !payload.issue?.pull_request) {
        return [];
      }
      return [pr(payload.issue.number, undefined, { action: 'comment', comment: String(payload.comment?.body ?? '') })];
    }
    case 'pull_request_review': {
      const action = payload.action === 'submitted' || payload.action === 'dismissed' ? payload.action : null;
      if (!action) {
        return [];
      }
      const pull = payload.pull_request;
      return [
        {
          ...base,
          type: 'pull_request_review',
          change: pull.number,
          branch: pull.base?.ref,
          action,
          state: String(payload.review?.state ?? '').toLowerCase(),
        },
      ];
    }
    case 'check_run': {
      if (payload.action !== 'rerequested' && payload.action !== 'requested_action') {
        return [];
      }
      const run = payload.check_run;
      return (run.pull_requests ?? []).map((p: Payload) => ({
        ...base,
        type: 'check_run' as const,
        change: Number(p.number),
        action: 'requested',
        check: String(run.name),
      }));
    }
    case 'push': {
      const zero = /^0+$/;
      return [
        {
          ...base,
          type: 'push',
          ref: String(payload.ref),
          ...(String(payload.ref).startsWith('refs/heads/') ? { branch: String(payload.ref).slice(11) } : {}),
          oldrev: payload.created || zero.test(String(payload.before)) ? null : String(payload.before),
          newrev: payload.deleted || zero.test(String(payload.after)) ? null : String(payload.after),
        },
      ];
    }
    case 'status': {
      // A status names a commit: every open pull request whose head it is gets the event.
      const sha = String(payload.sha);
      const status = `${String(payload.sender?.login ?? '')}:${String(payload.context)}:${String(payload.state)}`;
      const pulls = await connection.openPulls(repository);
      return pulls
        .filter((pull) => pull.head.sha === sha)
        .map((pull) => pr(pull.number, pull.base.ref, { action: 'status', status }));
    }
    default:
      return [];
  }
}
