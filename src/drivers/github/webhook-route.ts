/**
 * `POST /api/connection/{name}/payload` of a GitHub connection: its webhook deliveries
 * (docs/github.md#webhooks). A delivery without a well-formed signature header or without its
 * event and delivery headers is refused before its body is read (src/server/connection-webhooks.ts
 * reads it under its limits). The signature (`X-Hub-Signature-256`) is checked, the payload's
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

/**
 * How deep a payload may nest. GitHub's nest a few levels; a deeper one is refused with 400 rather
 * than left to the JSON serialisation and the database's parser, which recurse.
 */
export const MAX_PAYLOAD_NESTING = 100;

/** A valid HMAC-SHA256 header: `sha256=` and 64 hex digits. */
const SIGNATURE = /^sha256=[0-9a-f]{64}$/i;

function fail(ctx: Koa.Context, status: number, error: string, description: string): void {
  ctx.status = status;
  ctx.body = { error, description };
}

const INVALID_SIGNATURE = {
  status: 401,
  error: 'InvalidSignature',
  description:
    'the X-Hub-Signature-256 header is missing or is not the HMAC-SHA256 of the body with the webhook secret of this connection',
};

/** True when the JSON text nests arrays and objects deeper than `max` (one pass, strings skipped). */
export function jsonNestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 0x5c) {
        i += 1; // the escaped character
      } else if (char === 0x22) {
        inString = false;
      }
    } else if (char === 0x22) {
      inString = true;
    } else if (char === 0x5b || char === 0x7b) {
      depth += 1;
      if (depth > max) {
        return true;
      }
    } else if (char === 0x5d || char === 0x7d) {
      depth -= 1;
    }
  }
  return false;
}

/** Answers the deliveries of the GitHub connections (the API role routes `POST /api/connection/{name}/payload` here). */
export function githubWebhooks(context: WebhookContext<GitHubConnectionConfig>): WebhookReceiver {
  const connections = new Map(
    [...context.connections].map(([name, settings]) => [name, new GitHubConnection(name, settings)]),
  );
  const events = new ConnectionEventRepository(context.knex);
  return {
    refuseEarly: (ctx, name) => {
      if (!connections.has(name)) {
        return { status: 404, error: 'NotFound', description: `no GitHub connection named "${name}"` };
      }
      if (!SIGNATURE.test(ctx.get('x-hub-signature-256'))) {
        return INVALID_SIGNATURE;
      }
      if (!ctx.get('x-github-event') || !ctx.get('x-github-delivery')) {
        return {
          status: 400,
          error: 'BadRequest',
          description: 'the X-GitHub-Event and X-GitHub-Delivery headers are required',
        };
      }
      return null;
    },
    receive: async (ctx, name, body) => {
      const connection = connections.get(name);
      if (!connection?.signatureValid(body, ctx.get('x-hub-signature-256') || undefined)) {
        fail(ctx, INVALID_SIGNATURE.status, INVALID_SIGNATURE.error, INVALID_SIGNATURE.description);
        return;
      }
      const eventType = ctx.get('x-github-event');
      const delivery = ctx.get('x-github-delivery');
      const text = body.toString('utf8');
      if (jsonNestsDeeperThan(text, MAX_PAYLOAD_NESTING)) {
        fail(ctx, 400, 'BadRequest', `the payload nests deeper than ${MAX_PAYLOAD_NESTING} levels`);
        return;
      }
      let payload: unknown;
      try {
        payload = JSON.parse(text);
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
