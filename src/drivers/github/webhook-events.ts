/**
 * GitHub webhook payloads -> the engine's trigger events (docs/github.md#trigger-events), with
 * the reference's event and action names: `pull_request` (opened, changed, closed, reopened,
 * labeled, unlabeled, edited, comment, status), `pull_request_review` (submitted, dismissed),
 * `push` and `check_run` (requested). A `branch_protection_rule` makes no trigger event: the
 * tenants with its repository reload (`protectionChangeOf`). Each event's payload is checked (zod) for the fields read
 * here, when it arrives (src/drivers/github/webhook-route.ts) and again when it is processed.
 */
import { z } from 'zod';
import type { TriggerEvent } from '../../model/engine-events';
import type { GitHubConnection } from './connection';

/** A trigger event of a repository (its full name; the caller makes it canonical). */
export type RepositoryTrigger = TriggerEvent & { project: string };

const login = z.object({ login: z.string() });
/** What every handled event has: its repository, and who caused it. */
const base = { repository: z.object({ full_name: z.string().min(1) }), sender: login.nullish() };
const pullRequest = z.object({
  number: z.number().int().positive(),
  base: z.object({ ref: z.string() }),
  head: z.object({ sha: z.string() }),
});

/** The fields read of each event type that becomes trigger events; other event types are ignored. */
const PAYLOADS = {
  pull_request: z.object({
    ...base,
    action: z.string(),
    pull_request: pullRequest,
    label: z.object({ name: z.string() }).nullish(),
  }),
  issue_comment: z.object({
    ...base,
    action: z.string(),
    issue: z.object({ number: z.number().int().positive(), pull_request: z.unknown().optional() }),
    comment: z.object({ body: z.string().nullish() }).nullish(),
  }),
  pull_request_review: z.object({
    ...base,
    action: z.string(),
    pull_request: pullRequest.pick({ number: true, base: true }),
    review: z.object({ state: z.string() }).nullish(),
  }),
  check_run: z.object({
    ...base,
    action: z.string(),
    check_run: z.object({
      name: z.string(),
      pull_requests: z.array(z.object({ number: z.number().int().positive() })).nullish(),
    }),
  }),
  push: z.object({
    ...base,
    ref: z.string().min(1),
    before: z.string(),
    after: z.string(),
    created: z.boolean().nullish(),
    deleted: z.boolean().nullish(),
  }),
  status: z.object({ ...base, sha: z.string().min(1), context: z.string(), state: z.string() }),
  branch_protection_rule: z.object({ ...base, action: z.string() }),
};

type Payloads = { [K in keyof typeof PAYLOADS]: z.infer<(typeof PAYLOADS)[K]> };

type Parsed = { [K in keyof Payloads]: { type: K; payload: Payloads[K] } }[keyof Payloads];

function isHandled(eventType: string): eventType is keyof Payloads {
  return Object.hasOwn(PAYLOADS, eventType);
}

/** The payload of a handled event type, checked; `{ ignored }` for other event types; a problem in words when it lacks a field read. */
function parsePayload(eventType: string, payload: unknown): Parsed | { ignored: true } | { problem: string } {
  if (!isHandled(eventType)) {
    return { ignored: true };
  }
  const result = PAYLOADS[eventType].safeParse(payload);
  if (!result.success) {
    const issue = result.error.issues[0];
    return { problem: `the ${eventType} payload's ${issue.path.join('.') || 'body'}: ${issue.message}` };
  }
  return { type: eventType, payload: result.data } as Parsed;
}

/** Why a delivery's payload cannot become trigger events (a field read is missing or of the wrong type), or null. */
export function payloadProblem(eventType: string, payload: unknown): string | null {
  const parsed = parsePayload(eventType, payload);
  return 'problem' in parsed ? parsed.problem : null;
}

/** The repository (full name) whose branch protection a delivery says changed, or null. */
export function protectionChangeOf(eventType: string, payload: unknown): string | null {
  const parsed = parsePayload(eventType, payload);
  return 'type' in parsed && parsed.type === 'branch_protection_rule' ? parsed.payload.repository.full_name : null;
}

const PR_ACTIONS: Record<string, string> = {
  opened: 'opened',
  synchronize: 'changed',
  closed: 'closed',
  reopened: 'reopened',
  labeled: 'labeled',
  unlabeled: 'unlabeled',
  edited: 'edited',
};

const ZERO = /^0+$/;

/**
 * The trigger events of one delivery; an empty list when the event means nothing to the engine.
 * Throws `InvalidPayloadError` when the payload lacks a field read.
 */
export async function triggersOf(
  connection: GitHubConnection,
  eventType: string,
  payload: unknown,
  timestamp: string,
): Promise<RepositoryTrigger[]> {
  const parsed = parsePayload(eventType, payload);
  if ('ignored' in parsed) {
    return [];
  }
  if ('problem' in parsed) {
    throw new InvalidPayloadError(parsed.problem);
  }
  const repository = parsed.payload.repository.full_name;
  const base = { project: repository, connection: connection.name, timestamp, account: parsed.payload.sender?.login };
  const pr = (number: number, branch: string | undefined, fields: Partial<TriggerEvent>): RepositoryTrigger => ({
    ...base,
    type: 'pull_request',
    change: number,
    ...(branch === undefined ? {} : { branch }),
    ...fields,
  });
  switch (parsed.type) {
    case 'pull_request': {
      const { payload: event } = parsed;
      const action = PR_ACTIONS[event.action];
      if (!action) {
        return [];
      }
      const pull = event.pull_request;
      return [
        pr(pull.number, pull.base.ref, {
          action,
          patchset: pull.head.sha,
          ...(event.label?.name ? { label: event.label.name } : {}),
        }),
      ];
    }
    case 'issue_comment': {
      const { payload: event } = parsed;
      if (event.action !== 'created' || !event.issue.pull_request) {
        return [];
      }
      return [pr(event.issue.number, undefined, { action: 'comment', comment: event.comment?.body ?? '' })];
    }
    case 'pull_request_review': {
      const { payload: event } = parsed;
      if (event.action !== 'submitted' && event.action !== 'dismissed') {
        return [];
      }
      return [
        {
          ...base,
          type: 'pull_request_review',
          change: event.pull_request.number,
          branch: event.pull_request.base.ref,
          action: event.action,
          state: (event.review?.state ?? '').toLowerCase(),
        },
      ];
    }
    case 'check_run': {
      const { payload: event } = parsed;
      if (event.action !== 'rerequested' && event.action !== 'requested_action') {
        return [];
      }
      return (event.check_run.pull_requests ?? []).map((p) => ({
        ...base,
        type: 'check_run' as const,
        change: p.number,
        action: 'requested',
        check: event.check_run.name,
      }));
    }
    case 'push': {
      const { payload: event } = parsed;
      return [
        {
          ...base,
          type: 'push',
          ref: event.ref,
          ...(event.ref.startsWith('refs/heads/') ? { branch: event.ref.slice('refs/heads/'.length) } : {}),
          oldrev: event.created || ZERO.test(event.before) ? null : event.before,
          newrev: event.deleted || ZERO.test(event.after) ? null : event.after,
        },
      ];
    }
    case 'status': {
      // A status names a commit: every open pull request whose head it is gets the event.
      const { payload: event } = parsed;
      const status = `${event.sender?.login ?? ''}:${event.context}:${event.state}`;
      const pulls = await connection.openPulls(repository);
      return pulls
        .filter((pull) => pull.head.sha === event.sha)
        .map((pull) => pr(pull.number, pull.base.ref, { action: 'status', status }));
    }
    case 'branch_protection_rule':
      return []; // the tenants reload instead (src/drivers/github/roles.ts)
  }
}

/** A stored delivery whose payload lacks a field read: it is marked processed with the reason, never retried. */
export class InvalidPayloadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidPayloadError';
  }
}
