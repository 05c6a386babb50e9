/**
 * `POST /api/connection/{name}/payload`: webhook deliveries to a connection, answered by the
 * webhook receiver of the connection's driver (src/drivers/registry.ts; GitHub's:
 * docs/github.md#webhooks). Here the path, the method and the connection are checked, the
 * receiver's checks of the headers are made before any of the body is read, and the body is
 * read under the limits of src/server/webhook-intake.ts.
 */
import type Koa from 'koa';
import type { ServiceConfig } from '../config/service';
import type { ConnectionSettings, WebhookReceiver, WebhookRefusal } from '../drivers/driver';
import { DRIVERS } from '../drivers/registry';
import type { Database } from '../store/database';
import { WebhookIntake, type WebhookLimits } from './webhook-intake';

const PATH = /^\/api\/connection\/([^/]+)\/payload$/;

function fail(ctx: Koa.Context, status: number, error: string, description: string): void {
  ctx.status = status;
  ctx.body = { error, description };
}

/** A refusal before the body was read whole: the connection closes after it, the rest is never read. */
function refuse(ctx: Koa.Context, refusal: WebhookRefusal): void {
  ctx.set('Connection', 'close');
  if (refusal.status === 503) {
    ctx.set('Retry-After', '1');
  }
  fail(ctx, refusal.status, refusal.error, refusal.description);
}

export function connectionWebhooks(options: {
  config: ServiceConfig;
  database: Database;
  now: () => Date;
  onStored: () => void;
  limits?: WebhookLimits;
}): Koa.Middleware {
  const intake = new WebhookIntake(options.limits);
  const receivers = new Map<string, WebhookReceiver>();
  for (const driver of DRIVERS) {
    const connections = new Map<string, ConnectionSettings>(
      Object.entries(options.config.connections).filter(([, settings]) => settings.driver === driver.name),
    );
    if (driver.webhooks === undefined || connections.size === 0) {
      continue;
    }
    const receiver = driver.webhooks({
      connections,
      knex: options.database.knex,
      now: options.now,
      onStored: options.onStored,
    });
    connections.forEach((_settings, name) => receivers.set(name, receiver));
  }
  return async (ctx, next) => {
    const match = PATH.exec(ctx.path);
    if (!match) {
      await next();
      return;
    }
    if (ctx.method !== 'POST') {
      ctx.set('Allow', 'POST');
      fail(ctx, 405, 'MethodNotAllowed', 'webhook deliveries are POSTed');
      return;
    }
    const name = decodeURIComponent(match[1]);
    const receiver = receivers.get(name);
    if (!receiver) {
      fail(ctx, 404, 'NotFound', `no connection named "${name}" receives webhooks`);
      return;
    }
    const early = receiver.refuseEarly(ctx, name);
    if (early !== null) {
      refuse(ctx, early);
      return;
    }
    const read = await intake.read(ctx.req);
    if (!('body' in read)) {
      refuse(ctx, read);
      return;
    }
    try {
      await receiver.receive(ctx, name, read.body);
    } finally {
      read.release();
    }
  };
}
