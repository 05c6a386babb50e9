/** GraphQL over HTTP on yoga's endpoint (`/graphql`): the request goes to yoga with its Koa context. */
import type Koa from 'koa';
import type { SluiceYoga } from './yoga';

export function graphqlRoute(yoga: SluiceYoga): Koa.Middleware {
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
    ctx.body = response.body;
  };
}
