/** Request ids, in-flight accounting (for graceful shutdown) and one JSON access-log line per request. */
import { randomUUID } from 'node:crypto';
import type Koa from 'koa';
import type { Logger } from './logger';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Requests not yet finished, and who waits for the count to reach zero. */
export interface InFlightRequests {
  count: number;
  drained: Set<() => void>;
}

export function requestContext(logger: Logger, inFlight: InFlightRequests): Koa.Middleware {
  return async (ctx, next) => {
    const incoming = ctx.get('X-Request-Id');
    const requestId = REQUEST_ID.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    inFlight.count++;
    try {
      await next();
    } finally {
      const done = (): void => {
        inFlight.count--;
        if (inFlight.count === 0) {
          for (const resolve of [...inFlight.drained]) {
            resolve();
          }
        }
        logger.info(
          {
            requestId,
            method: ctx.method,
            path: ctx.path,
            status: ctx.status,
            ms: Number(process.hrtime.bigint() - started) / 1e6,
          },
          'request',
        );
      };
      // Streaming bodies (SSE) finish after the middleware returns.
      if (ctx.res.writableFinished) {
        done();
      } else {
        ctx.res.once('close', done);
      }
    }
  };
}

/** Resolves once no request is in flight, or at `deadline` (epoch ms) at the latest. */
export function waitForDrain(inFlight: InFlightRequests, deadline: number): Promise<void> {
  if (inFlight.count === 0) {
    return Promise.resolve();
  }
  return new Promise<void>((resolve) => {
    const timer = setTimeout(finish, Math.max(0, deadline - Date.now()));
    function finish(): void {
      clearTimeout(timer);
      inFlight.drained.delete(finish);
      resolve();
    }
    inFlight.drained.add(finish);
  });
}
