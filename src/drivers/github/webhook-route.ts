/**
 * `POST /api/connection/{name}/payload` of a GitHub connection: its webhook deliveries
 * (docs/github.md#webhooks). The signature (`X-Hub-Signature-256`) is checked, the payload's
 * fields that become trigger events are checked (src/drivers/github/webhook-events.ts), the
 * delivery is stored durably (de-duplicated by `X-GitHub-Delivery`) and only then answered 200;
 * the scheduler role turns stored deliveries into trigger events.
 */
import type Koa from 'koa';
import { ConnectionEventRepository } from '../../store/repositories/connection-events';
import type { WebhookContext, WebhookReceiver } from '../driver';
import { GitHubConnection } from './connection';
import type { GitHubConnectionConfig } from './connection-schema';
import { payloadProblem } from './webhook-events';

/** GitHub caps webhook payloads at 25 MB. */
const MAX_BODY = 25 * 1024 * 1024;

function fail(ctx: Koa.Context, status: number, error: string, description: string): void {
  ctx.status = status;
  ctx.body = { error, description };
}

async function readBody(req: Koa.Request['req']): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) {
      return null;
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Answers the deliveries of the GitHub connections (the API role routes `POST /api/connection/{name}/payload` here). */
export function githubWebhooks(context: WebhookContext<GitHubConnectionConfig>): WebhookReceiver {
  const connections = new Map(
    [...context.connections].map(([name, settings]) => [name, new GitHubConnection(name, settings)]),
  );
  const events = new ConnectionEventRepository(context.knex);
  return {
    receive: async (ctx, name) => {
      const connection = connections.get(name);
      if (!connection) {
        fail(ctx, 404, 'NotFound', `no GitHub connection named "${name}"`);
        return;
      }
      const body = await readBody(ctx.req);
      if (body === null) {
        fail(ctx, 413, 'PayloadTooLarge', 'webhook payloads are limited to 25 MB');
        return;
      }
      if (!connection.signatureValid(body, ctx.get('x-hub-signature-256') || undefined)) {
        fail(
          ctx,
          401,
          'InvalidSignature',
          'the X-Hub-Signature-256 header is missing or is not the HMAC-SHA256 of the body with the webhook secret of this connection',
        );
        return;
      }
      const eventType = ctx.get('x-github-event');
      const delivery = ctx.get('x-github-delivery');
      if (!eventType || !delivery) {
        fail(ctx, 400, 'BadRequest', 'the X-GitHub-Event and X-GitHub-Delivery headers are required');
        return;
      }
      let payload: unknown;
      try {
        payload = JSON.parse(body.toString('utf8'));
      } catch {
        fail(
          ctx,
          400,
          'BadRequest',
          'the payload is not JSON (configure the webhook with content type application/json)',
        );
        return;
      }
      if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) {
        fail(ctx, 400, 'BadRequest', 'the payload must be a JSON object');
        return;
      }
      const problem = payloadProblem(eventType, payload);
      if (problem !== null) {
        fail(ctx, 400, 'BadRequest', problem);
        return;
      }
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
