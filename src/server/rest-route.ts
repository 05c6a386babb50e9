/**
 * The REST compatibility layer on `/api` (docs/rest.md): the route table run as GraphQL operations
 * over the same yoga instance, authenticated from the `Authorization` header.
 */
import type Koa from 'koa';
import { defaultRealm } from '../auth/capabilities';
import { requestAuthFromHeader } from '../auth/gate';
import type { ServiceConfig } from '../config/service';
import type { Redactor } from '../secrets/redact';
import type { Services } from '../../schema/infra/context';
import { REST_ROUTES } from '../../rest-compat';
import { createOperationRunner } from '../../rest-compat/operation-runner';
import { restRouter } from '../../rest-compat/router';
import type { SluiceYoga } from './yoga';

export interface RestRouteOptions {
  config: ServiceConfig;
  yoga: SluiceYoga;
  services: Services;
  redactor: () => Redactor;
}

export function restRoute({ config, yoga, services, redactor }: RestRouteOptions): Koa.Middleware {
  return restRouter({
    routes: REST_ROUTES,
    run: createOperationRunner(yoga),
    defaultShape: config.api.restShape,
    serverContext: (ctx) => ({ koa: ctx, requestId: ctx.state.requestId, sharedReads: true }),
    defaultRealm: () => defaultRealm(config.auth, services.auth.policies().rootPolicy().authenticationRealm),
    requestAuth: async (ctx) =>
      requestAuthFromHeader(await services.auth.authenticator(), ctx.get('authorization'), services.auth.policies()),
    redactor,
  });
}
