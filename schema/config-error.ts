/**
 * Configuration errors and warnings of a tenant's current layout, in layout order, as stored by
 * the LayoutManager. Pages by offset: the list is small and replaced wholesale on reconfiguration.
 */
import { GraphQLError } from 'graphql';
import type { SourceContext as SourceContextValue } from '../src/config/layout';
import type { ConfigErrorRecord } from '../src/store/repositories/config-errors';
import { builder } from './infra/builder';
import type { GraphQLContext } from './infra/context';
import { layoutStore } from './infra/layout-store';
import { SourceContext } from './source-context';
import { Tenant } from './tenant';

/** Page size when neither `first` nor `last` is given. */
export const CONFIG_ERROR_PAGE_SIZE = 50;
/** Largest page; bigger `first`/`last` are clamped to it. */
export const CONFIG_ERROR_MAX_PAGE_SIZE = 1000;

interface ConfigErrorView {
  record: ConfigErrorRecord;
  tenant: string;
}

export const ConfigErrorSeverity = builder.enumType('ConfigErrorSeverity', {
  description: 'How serious a configuration problem is; the REST API spells them in lower case.',
  values: {
    ERROR: { value: 'error', description: 'The object was not loaded.' },
    WARNING: {
      value: 'warning',
      description: 'The object was loaded but something about it is questionable or deprecated.',
    },
  } as const,
});

const ConfigError = builder.objectRef<ConfigErrorView>('ConfigError').implement({
  description: "A problem found while loading the tenant's configuration.",
  fields: (t) => ({
    sourceContext: t.field({
      type: SourceContext,
      description: 'Where the problem is; null for problems not tied to a repository (tenant file).',
      resolve: (e, _args, ctx) => sourceContextOf(e, ctx),
    }),
    line: t.int({
      description: 'Line of the offending object in its file, when known.',
      resolve: (e) => e.record.line,
    }),
    severity: t.field({
      type: ConfigErrorSeverity,
      nullable: false,
      description: 'Error or warning.',
      resolve: (e) => e.record.severity,
    }),
    name: t.string({
      nullable: false,
      description: 'Kind of problem (`Unknown`, `Job Not Found`, ...).',
      resolve: (e) => e.record.name,
    }),
    error: t.string({
      nullable: false,
      description: 'Full message, with the offending snippet.',
      resolve: (e) => e.record.error,
    }),
    shortError: t.string({ nullable: false, description: 'One-line message.', resolve: (e) => e.record.shortError }),
    firstSeen: t.field({
      type: 'DateTime',
      nullable: false,
      description: 'When the problem first appeared in a layout of the tenant.',
      resolve: (e) => e.record.firstSeen,
    }),
  }),
});

const ConfigErrorFilter = builder.inputType('ConfigErrorFilter', {
  description: 'Exact-match filters of configuration errors; every field is optional and they combine with AND.',
  fields: (t) => ({
    project: t.string({ description: "Short project name of the error's source context." }),
    branch: t.string({ description: "Branch of the error's source context." }),
    severity: t.field({ type: ConfigErrorSeverity, description: 'Only errors or only warnings.' }),
    name: t.string({ description: 'Kind of problem, e.g. `Job Not Found`.' }),
  }),
});

function sourceContextOf(e: ConfigErrorView, ctx: GraphQLContext): SourceContextValue | null {
  const r = e.record;
  if (r.project === null || r.projectCanonicalName === null) {
    return null;
  }
  const project = ctx.services.tenants.layout(e.tenant)?.projects.get(r.projectCanonicalName);
  return {
    projectName: r.project,
    projectCanonicalName: r.projectCanonicalName,
    connectionName: r.connectionName ?? project?.connectionName ?? '',
    branch: r.branch ?? '',
    path: r.path ?? '',
    trusted: project?.trusted ?? false,
  };
}

const offsetCursor = {
  encode: (position: number): string => Buffer.from(`offset:${position}`).toString('base64url'),
  decode: (value: string): number => {
    const match = /^offset:(\d{1,9})$/.exec(Buffer.from(value, 'base64url').toString());
    if (!match) {
      throw badInput(`Invalid cursor "${value}".`);
    }
    return Number(match[1]);
  },
};

function badInput(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT' } });
}

function pageSize(value: number | null | undefined, name: string): number | undefined {
  if (value == null) {
    return undefined;
  }
  if (value < 0) {
    throw badInput(`\`${name}\` must not be negative.`);
  }
  return Math.min(value, CONFIG_ERROR_MAX_PAGE_SIZE);
}

interface PageArgs {
  first?: number | null;
  last?: number | null;
  after?: string | null;
  before?: string | null;
  offset?: number | null;
}

/** The [start, end) window of positions a page covers, given the number of matching errors. */
function pageWindow(args: PageArgs, total: number): { start: number; end: number } {
  const first = pageSize(args.first, 'first');
  const last = pageSize(args.last, 'last');
  const offset = args.offset ?? 0;
  if (offset < 0) {
    throw badInput('`offset` must not be negative.');
  }
  if (first !== undefined && last !== undefined) {
    throw badInput('Pass either `first` or `last`, not both.');
  }
  let start = (args.after != null ? offsetCursor.decode(args.after) + 1 : 0) + offset;
  let end = Math.min(args.before != null ? offsetCursor.decode(args.before) : total, total);
  if (last !== undefined) {
    start = Math.max(start, end - last);
  } else {
    end = Math.min(end, start + (first ?? CONFIG_ERROR_PAGE_SIZE));
  }
  return { start, end: Math.max(start, end) };
}

builder.objectFields(Tenant, (t) => ({
  configErrorCount: t.int({
    nullable: false,
    description: 'Number of configuration errors and warnings of the current layout (REST `tenant-status`).',
    resolve: (tenant, _args, ctx) => layoutStore(ctx).configErrors.count(tenant.name),
  }),
  configErrors: t.connection(
    {
      type: ConfigError,
      nullable: false,
      edgesNullable: { list: false, items: false },
      nodeNullable: false,
      description:
        `Configuration errors and warnings of the current layout, in layout order. Pages hold ${CONFIG_ERROR_PAGE_SIZE} ` +
        `by default and at most ${CONFIG_ERROR_MAX_PAGE_SIZE}; \`offset\` skips rows after the cursor (REST \`skip\`).`,
      args: {
        filter: t.arg({ type: ConfigErrorFilter, description: 'Which errors to list; all when absent.' }),
        offset: t.arg.int({ description: 'Rows to skip after the cursor position (REST `skip`).' }),
      },
      resolve: async (tenant, args, ctx) => {
        const repository = layoutStore(ctx).configErrors;
        const filter = {
          project: args.filter?.project ?? undefined,
          branch: args.filter?.branch ?? undefined,
          severity: args.filter?.severity ?? undefined,
          name: args.filter?.name ?? undefined,
        };
        const total = await repository.count(tenant.name, filter);
        const { start, end } = pageWindow(args, total);
        const records =
          end > start ? await repository.list(tenant.name, { ...filter, limit: end - start, offset: start }) : [];
        const edges = records.map((record, index) => ({
          cursor: offsetCursor.encode(start + index),
          node: { record, tenant: tenant.name },
        }));
        return {
          edges,
          totalCount: total,
          pageInfo: {
            hasNextPage: start + records.length < total,
            hasPreviousPage: start > 0,
            startCursor: edges[0]?.cursor ?? null,
            endCursor: edges[edges.length - 1]?.cursor ?? null,
          },
        };
      },
    },
    {
      name: 'ConfigErrorConnection',
      description: 'A page of configuration errors, in layout order.',
      fields: (tc) => ({
        totalCount: tc.int({
          nullable: false,
          description: 'Number of errors matching the filter, on all pages.',
          resolve: (connection) => connection.totalCount,
        }),
      }),
    },
    { name: 'ConfigErrorEdge', description: 'A configuration error and its cursor.' },
  ),
}));
