/**
 * Deployment-wide facts the REST `components` and `connections` endpoints report
 * (docs/rest.md#components-and-connections): live Sluice processes and the configured source connections.
 */
import { connectionPublicInfo } from '../src/config/service';
import { ComponentRepository, type ComponentRecord } from '../src/store/repositories/components';
import { builder } from './infra/builder';

/** Heartbeats arrive every 30 s; a process silent for three intervals is not listed. */
const ALIVE_WINDOW_MS = 90_000;

const Component = builder.objectRef<ComponentRecord>('Component').implement({
  description: 'A running Sluice process (role) and its last reported state.',
  fields: (t) => ({
    kind: t.exposeString('kind', {
      nullable: false,
      description: 'Role of the process: api, scheduler, executor or launcher.',
    }),
    hostname: t.exposeString('hostname', { nullable: false, description: 'Host the process runs on.' }),
    state: t.exposeString('state', { nullable: false, description: 'initializing, running or paused.' }),
    version: t.exposeString('version', { nullable: false, description: 'Sluice version of the process.' }),
  }),
});

type ConnectionView = NonNullable<ReturnType<typeof connectionPublicInfo>>;

const Connection = builder.objectRef<ConnectionView>('Connection').implement({
  description: 'A configured source connection (code repositories Sluice reads changes from).',
  fields: (t) => ({
    name: t.exposeString('name', { nullable: false, description: 'Connection name, as used in tenant files.' }),
    driver: t.exposeString('driver', { nullable: false, description: 'Connection driver, e.g. git.' }),
    baseurl: t.exposeString('baseurl', { nullable: false, description: 'Where the repositories are found.' }),
    canonicalHostname: t.exposeString('canonicalHostname', {
      nullable: false,
      description: 'Host part of canonical project names (the connection name when none is configured).',
    }),
    server: t.exposeString('server', {
      nullable: true,
      description: 'Host name of the code-review server (Gerrit, GitHub, GitLab); null for git.',
    }),
    sshServer: t.exposeString('sshServer', {
      nullable: true,
      description: "Host of Gerrit's SSH (event stream, git over SSH); null for other drivers.",
    }),
    port: t.exposeInt('port', { nullable: true, description: "Gerrit's SSH port; null for other drivers." }),
  }),
});

builder.queryFields((t) => ({
  components: t.field({
    type: [Component],
    nullable: false,
    description:
      'Sluice processes alive now (heartbeat within 90 seconds), by kind then start time (api-root access rules apply).',
    authScopes: { rootRead: true },
    resolve: (_root, _args, ctx) =>
      new ComponentRepository(ctx.services.knex).listAlive(new Date(ctx.services.now().getTime() - ALIVE_WINDOW_MS)),
  }),
  connections: t.field({
    type: [Connection],
    nullable: false,
    description:
      'Source connections in configuration order (connections without a source, such as timer, are not listed; api-root access rules apply).',
    authScopes: { rootRead: true },
    resolve: (_root, _args, ctx) =>
      Object.entries(ctx.services.config.connections).flatMap(([name, connection]) => {
        const info = connectionPublicInfo(name, connection);
        return info === undefined ? [] : [info];
      }),
  }),
}));
