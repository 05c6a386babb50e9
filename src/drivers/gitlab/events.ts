/**
 * GitLab webhooks (docs/gitlab.md#webhooks): `POST /api/connection/{name}/payload` checks
 * `X-Gitlab-Token`, checks the fields read of the payload, stores the delivery durably
 * (de-duplicated by `X-Gitlab-Event-UUID`, else by the body's SHA-256) and only then answers
 * 200; the scheduler role turns stored deliveries into `gl_merge_request` and `gl_push` trigger
 * events (docs/gitlab.md#trigger-events).
 */
import { createHash } from 'node:crypto';
import type Koa from 'koa';
import { z } from 'zod';
import type { TriggerEvent } from '../../model/engine-events';
import { ConnectionEventRepository } from '../../store/repositories/connection-events';
import type { WebhookContext, WebhookReceiver } from '../driver';
import { GitLabConnection, type GitLabConnectionConfig } from './connection';

/** A trigger event of a project (its path; the caller makes it canonical). */
export type ProjectTrigger = TriggerEvent & { project: string };

const project = z.object({ path_with_namespace: z.string().min(1) });
const user = z.object({ username: z.string() }).nullish();
const mergeRequest = z.object({
  iid: z.number().int().positive(),
  target_branch: z.string(),
  last_commit: z.object({ id: z.string() }).nullish(),
});

/** The fields read of each `object_kind` that becomes trigger events; other kinds are ignored. */
const PAYLOADS = {
  merge_request: z.object({
    project,
    user,
    object_attributes: mergeRequest.extend({ action: z.string().nullish(), oldrev: z.string().nullish() }),
    changes: z
      .object({
        description: z.unknown().optional(),
        labels: z
          .object({
            previous: z.array(z.object({ title: z.string() })),
            current: z.array(z.object({ title: z.string() })),
          })
          .nullish(),
      })
      .nullish(),
  }),
  note: z.object({
    project,
    user,
    object_attributes: z.object({ note: z.string(), noteable_type: z.string() }),
    merge_request: mergeRequest.nullish(),
  }),
  push: z.object({
    project,
    user_username: z.string().nullish(),
    ref: z.string().min(1),
    before: z.string(),
    after: z.string(),
  }),
  tag_push: z.object({
    project,
    user_username: z.string().nullish(),
    ref: z.string().min(1),
    before: z.string(),
    after: z.string(),
  }),
};

function kindOf(payload: Record<string, unknown>): string {
  return typeof payload.object_kind === 'string' ? payload.object_kind : '';
}

/** Why a payload cannot be taken (a missing field read), or null. */
export function payloadProblem(payload: Record<string, unknown>): string | null {
  const kind = kindOf(payload);
  if (!Object.hasOwn(PAYLOADS, kind)) {
    return null;
  }
  const result = PAYLOADS[kind as keyof typeof PAYLOADS].safeParse(payload);
  if (result.success) {
    return null;
  }
  const issue = result.error.issues[0];
  return `the ${kind} payload's ${issue.path.join('.') || 'body'}: ${issue.message}`;
}

const MR_ACTIONS: Record<string, string> = {
  open: 'opened',
  reopen: 'opened',
  close: 'closed',
  merge: 'merged',
  approved: 'approved',
  unapproved: 'unapproved',
};

/** The trigger events of a stored delivery (none for kinds and actions that trigger nothing). */
export function triggersOf(payload: Record<string, unknown>, timestamp: string): ProjectTrigger[] {
  const kind = kindOf(payload);
  if (payloadProblem(payload) !== null) {
    return [];
  }
  if (kind === 'push' || kind === 'tag_push') {
    const push = PAYLOADS.push.parse(payload);
    const branch = push.ref.startsWith('refs/heads/') ? push.ref.slice('refs/heads/'.length) : undefined;
    const zero = /^0+$/;
    return [
      {
        type: 'gl_push',
        project: push.project.path_with_namespace,
        ref: push.ref,
        ...(branch === undefined ? {} : { branch }),
        oldrev: zero.test(push.before) ? null : push.before,
        newrev: zero.test(push.after) ? null : push.after,
        account: push.user_username ?? undefined,
        timestamp,
      },
    ];
  }
  const change = (mr: z.infer<typeof mergeRequest>, path: string, account: string | undefined) => ({
    type: 'gl_merge_request' as const,
    project: path,
    change: mr.iid,
    ...(mr.last_commit ? { patchset: mr.last_commit.id } : {}),
    branch: mr.target_branch,
    ref: `refs/merge-requests/${mr.iid}/head`,
    account,
    timestamp,
  });
  if (kind === 'note') {
    const note = PAYLOADS.note.parse(payload);
    if (note.object_attributes.noteable_type !== 'MergeRequest' || !note.merge_request) {
      return [];
    }
    const base = change(note.merge_request, note.project.path_with_namespace, note.user?.username);
    return [{ ...base, action: 'comment', comment: note.object_attributes.note }];
  }
  if (kind !== 'merge_request') {
    return [];
  }
  const mr = PAYLOADS.merge_request.parse(payload);
  const attrs = mr.object_attributes;
  const base = change(attrs, mr.project.path_with_namespace, mr.user?.username);
  const action = MR_ACTIONS[attrs.action ?? ''];
  if (action !== undefined) {
    return [{ ...base, action }];
  }
  if (attrs.action !== 'update') {
    return [];
  }
  // An update with new commits has `oldrev`; one that edits the description (which may name other
  // `Depends-On` changes) is `changed` too, as the reference has it; one that changes labels has `changes.labels`.
  if (attrs.oldrev || mr.changes?.description !== undefined) {
    return [{ ...base, action: 'changed' }];
  }
  const labels = mr.changes?.labels;
  if (!labels) {
    return [];
  }
  const previous = new Set(labels.previous.map((l) => l.title));
  const current = new Set(labels.current.map((l) => l.title));
  return [
    ...[...current].filter((l) => !previous.has(l)).map((label) => ({ ...base, action: 'labeled', label })),
    ...[...previous].filter((l) => !current.has(l)).map((label) => ({ ...base, action: 'unlabeled', label })),
  ];
}

function fail(ctx: Koa.Context, status: number, error: string, description: string): void {
  ctx.status = status;
  ctx.body = { error, description };
}

/** Answers the deliveries of the GitLab connections. */
export function gitlabWebhooks(context: WebhookContext<GitLabConnectionConfig>): WebhookReceiver {
  const connections = new Map(
    [...context.connections].map(([name, settings]) => [name, new GitLabConnection(name, settings)]),
  );
  const events = new ConnectionEventRepository(context.knex);
  return {
    refuseEarly: (ctx, name) => {
      const connection = connections.get(name);
      if (!connection) {
        return { status: 404, error: 'NotFound', description: `no GitLab connection named "${name}"` };
      }
      if (!connection.tokenValid(ctx.get('x-gitlab-token') || undefined)) {
        return {
          status: 401,
          error: 'InvalidToken',
          description: 'the X-Gitlab-Token header is missing or is not the webhook token of this connection',
        };
      }
      if (!ctx.get('x-gitlab-event')) {
        return { status: 400, error: 'BadRequest', description: 'the X-Gitlab-Event header is required' };
      }
      return null;
    },
    receive: async (ctx, name, body) => {
      const eventType = ctx.get('x-gitlab-event');
      let payload: unknown;
      try {
        payload = JSON.parse(body.toString('utf8'));
      } catch {
        fail(ctx, 400, 'BadRequest', 'the payload is not JSON');
        return;
      }
      if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) {
        fail(ctx, 400, 'BadRequest', 'the payload must be a JSON object');
        return;
      }
      const problem = payloadProblem(payload as Record<string, unknown>);
      if (problem !== null) {
        fail(ctx, 400, 'BadRequest', problem);
        return;
      }
      const delivery = ctx.get('x-gitlab-event-uuid') || `sha256:${createHash('sha256').update(body).digest('hex')}`;
      const stored = await events.record(
        { connection: name, delivery, eventType, payload: payload as Record<string, unknown> },
        context.now(),
      );
      if (stored) {
        context.onStored();
      }
      ctx.status = 200;
      ctx.body = { status: stored ? 'stored' : 'duplicate delivery', delivery };
    },
  };
}
