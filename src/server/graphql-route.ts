/**
 * GraphQL over HTTP on yoga's endpoint (`/graphql`): the request goes to yoga with its Koa
 * context. A subscription over server-sent events is written under the WebSockets' send limits
 * (docs/live.md#slow-consumers) instead of through Koa's body.
 */
import type Koa from 'koa';
import { writeEventStream } from '../../subscriptions/event-stream-send';
import type { SendLimits } from '../../subscriptions/slow-consumer';
import type { SluiceYoga } from './yoga';

export function graphqlRoute(yoga: SluiceYoga, sendLimits: SendLimits): Koa.Middleware {
  return async (ctx, next) => {
    if (ctx.path !== yoga.graphqlEndpoint) {
      return next();
    }
    const response = await yoga.handleNodeRequestAndResponse(ctx.request, ctx.res, {
      koa: ctx,
      requestId: ctx.state.requestId,
    });
    ctx.status = response.status;
    response.headers.forEach((value, key) => {
      ctx.append(key, value);
    });
    const body = response.body as (AsyncIterable<Uint8Array> & ReadableStream<Uint8Array>) | null;
    if (body !== null && (response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
      ctx.respond = false;
      ctx.res.writeHead(ctx.status); // with the headers set above
      ctx.res.flushHeaders();
      void writeEventStream(body, ctx.res, sendLimits);
      return;
    }
    ctx.body = body;
  };
}
