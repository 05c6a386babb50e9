/** graphql-yoga over the Pothos schema; the context is built from Koa (HTTP) or graphql-ws (WebSocket). */
import { createYoga, type YogaServerInstance } from 'graphql-yoga';
import { initContextCache } from '@pothos/core';
import type Koa from 'koa';
import { schema } from '../../schema';
import { createContext, type GraphQLContext, type Services } from '../../schema/infra/context';
import { requestAuthFromConnectionParams, requestAuthFromHeader, type RequestAuth } from '../auth/gate';
import { hardeningPlugins } from './graphql-hardening';
import { useLiveSubscriptionEvents } from '../../subscriptions/live/shared-event-execution';
import type { Logger } from './logger';
import { renderLocalGraphiQL } from './graphiql-assets';
import { NO_REDACTION, useSecretRedaction } from './secret-redaction';
import { useIntrospectionGate } from './introspection-gate';

/** What yoga receives as its server context: the Koa context on HTTP, or the graphql-ws context on WebSocket. */
export interface SluiceServerContext {
  koa?: Koa.Context;
  requestId?: string;
  /** graphql-ws `connection_init` payload (WebSocket only). */
  connectionParams?: Readonly<Record<string, unknown>>;
  /** Set by the REST router, which has authenticated the request already. */
  requestAuth?: RequestAuth;
  /** REST requests: shared reads (see `GraphQLContext.sharedReads`). */
  sharedReads?: boolean;
}

/**
 * How the request authenticated: the `Authorization` header on HTTP (REST runs through here
 * too), `connectionParams` on WebSocket (docs/security.md#authenticators).
 */
async function requestAuthOf(services: Services, initial: SluiceServerContext): Promise<RequestAuth> {
  if (initial.requestAuth !== undefined) {
    return initial.requestAuth;
  }
  const authenticator = await services.auth.authenticator();
  const policies = services.auth.policies();
  if (initial.connectionParams !== undefined || initial.koa === undefined) {
    return requestAuthFromConnectionParams(authenticator, initial.connectionParams ?? null, policies);
  }
  return requestAuthFromHeader(authenticator, initial.koa.get('authorization'), policies);
}

export type SluiceYoga = YogaServerInstance<SluiceServerContext, GraphQLContext>;

export function buildYoga(services: Services, logger: Logger): SluiceYoga {
  return createYoga<SluiceServerContext, GraphQLContext>({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    graphiql: { title: 'Sluice GraphQL' },
    renderGraphiQL: renderLocalGraphiQL, // assets from this service, not a CDN
    logging: {
      debug: (...args) => logger.debug({ args }, 'graphql'),
      info: (...args) => logger.info({ args }, 'graphql'),
      warn: (...args) => logger.warn({ args }, 'graphql'),
      error: (...args) => logger.error({ args }, 'graphql'),
    },
    context: async (initial) =>
      createContext(
        services,
        initial.requestId ?? initial.koa?.state.requestId ?? 'ws',
        await requestAuthOf(services, initial),
        initial.sharedReads === true,
      ),
    plugins: [
      ...hardeningPlugins(services.config.graphql),
      useIntrospectionGate(services.config.graphql.introspectionConcurrency),
      // A subscription keeps its context; every event gets fresh Pothos caches (loaders, auth),
      // and identical operations share the result of a shared live event.
      useLiveSubscriptionEvents(() => initContextCache()),
      useSecretRedaction(services.secretRedactor ?? (() => NO_REDACTION)),
    ],
  });
}
