/** Service information: version, capabilities, and how clients should authenticate. */
import { authRealms, defaultRealm } from '../src/auth/capabilities';
import { builder } from './infra/builder';

interface InfoShape {
  version: string;
}

const AuthRealm = builder.simpleObject('AuthRealm', {
  description: 'An authentication realm clients can obtain tokens from.',
  fields: (t) => ({
    name: t.string({ nullable: false, description: 'Realm name, as it appears in WWW-Authenticate.' }),
    authority: t.string({ description: 'Token issuer (OpenID Connect authority).' }),
    clientId: t.string({ description: 'Client id to use when asking the authority for a token.' }),
    driver: t.string({
      nullable: false,
      description: 'Token verification driver: HS256, RS256, ES256 or OpenIDConnect.',
    }),
    scope: t.string({ description: 'OpenID Connect scope to request, when the driver is OpenIDConnect.' }),
    loadUserInfo: t.boolean({
      description: 'Whether dashboards should load the OpenID Connect user info; null for other drivers.',
    }),
  }),
});

const AuthCapabilities = builder.simpleObject('AuthCapabilities', {
  description: 'How a client should authenticate with this deployment.',
  fields: (t) => ({
    realms: t.field({ type: [AuthRealm], nullable: false, description: 'Configured authentication realms.' }),
    defaultRealm: t.string({
      description:
        "The realm a dashboard should use by default: the api-root's authentication-realm when set, else the default authenticator's; null when none is configured.",
    }),
    readProtected: t.boolean({ nullable: false, description: 'True when reading the API itself requires a token.' }),
  }),
});

const Capabilities = builder.simpleObject('Capabilities', {
  description: 'Optional features this deployment offers.',
  fields: (t) => ({
    jobHistory: t.boolean({ nullable: false, description: 'Build history is stored and can be queried.' }),
    auth: t.field({ type: AuthCapabilities, nullable: false, description: 'Authentication set-up.' }),
  }),
});

const Info = builder.objectRef<InfoShape>('Info').implement({
  description: 'Facts about this Sluice deployment.',
  fields: (t) => ({
    version: t.exposeString('version', { nullable: false, description: 'Version of the running Sluice service.' }),
    restShape: t.string({
      nullable: false,
      description: 'REST shape served by default: "current" or "earlier" (see docs/rest.md).',
      resolve: (_info, _args, ctx) => ctx.services.config.api.restShape,
    }),
    websocketUrl: t.string({
      description: 'URL of the GraphQL WebSocket endpoint when it differs from the HTTP endpoint; null otherwise.',
      resolve: () => null,
    }),
    capabilities: t.field({
      type: Capabilities,
      nullable: false,
      description: 'Optional features of this deployment.',
      resolve: (_info, _args, ctx) => {
        const { auth } = ctx.services.config;
        const root = ctx.services.auth.policies().rootPolicy();
        return {
          jobHistory: true,
          auth: {
            realms: authRealms(auth),
            // compat.md §2.2: the api-root's authentication-realm overrides the default.
            defaultRealm: defaultRealm(auth, root.authenticationRealm),
            readProtected: root.accessRules.length > 0,
          },
        };
      },
    }),
  }),
});

builder.queryField('info', (t) =>
  t.field({
    type: Info,
    nullable: false,
    description: 'Facts about this deployment: version, capabilities and authentication set-up.',
    resolve: (_root, _args, ctx) => ({ version: ctx.services.version }),
  }),
);
