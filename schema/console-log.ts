/**
 * `consoleLog`: a build's output as a GraphQL subscription, the same stream the REST
 * console-stream WebSocket serves. Lines carry sequence numbers (= line numbers of
 * job-output.txt), so a client resumes after a disconnect by passing the last one it saw.
 * A running build is followed live; a finished build's log is replayed and the stream completes.
 */
import { GraphQLError } from 'graphql';
import { replayLogFile, type ConsoleLine } from '../src/executor/build-log';
import type { ConsoleTarget } from '../src/executor/console-resolver';
import { builder } from './infra/builder';
import { assertStillReadable, readAccessRecheck } from './infra/access';
import { LiveIterator } from './infra/live-iterator';

/** Finds what can be streamed for a build of a tenant (the executor's console resolver). */
export type ConsoleSource = (tenant: string, buildUuid: string) => Promise<ConsoleTarget>;

interface ConsoleChunk {
  lines: ConsoleLine[];
}

const ConsoleLogLine = builder.objectRef<ConsoleLine>('ConsoleLogLine').implement({
  description: 'One line of build output.',
  fields: (t) => ({
    seq: t.exposeInt('seq', {
      nullable: false,
      description: 'Sequence number: the 1-based line number in job-output.txt.',
    }),
    text: t.exposeString('text', {
      nullable: false,
      description: 'The line with its UTC timestamp prefix, without the newline.',
    }),
  }),
});

const ConsoleLogChunk = builder.objectRef<ConsoleChunk>('ConsoleLogChunk').implement({
  description: 'Lines of build output that became available together.',
  fields: (t) => ({
    lines: t.field({
      type: [ConsoleLogLine],
      nullable: false,
      description: 'The lines, in order.',
      resolve: (chunk) => chunk.lines,
    }),
  }),
});

function unavailable(message: string, code: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code } });
}

async function* streamTarget(
  target: ConsoleTarget,
  fromSeq: number,
  signal: AbortSignal,
): AsyncGenerator<ConsoleChunk> {
  switch (target.kind) {
    case 'not-found':
      throw unavailable('Build not found', 'NOT_FOUND');
    case 'not-started':
      throw unavailable('Build did not start yet', 'BUILD_NOT_STARTED');
    case 'unavailable':
      throw unavailable('Error with log streaming', 'SERVICE_UNAVAILABLE');
    case 'live':
      for await (const lines of target.log.lines(fromSeq, signal)) {
        yield { lines };
      }
      return;
    case 'finished':
      for await (const lines of replayLogFile(target.file, fromSeq)) {
        yield { lines };
      }
      return;
  }
}

builder.subscriptionField('consoleLog', (t) =>
  t.field({
    type: ConsoleLogChunk,
    nullable: false,
    description:
      'Output of a build: live while it runs, replayed when it has finished; completes at the end of the log. ' +
      'Errors: "Build not found" (NOT_FOUND), "Build did not start yet" (BUILD_NOT_STARTED), ' +
      '"Error with log streaming" (SERVICE_UNAVAILABLE, the build runs in another process whose log root this one does not share).',
    args: {
      tenant: t.arg.string({ required: true, description: 'Tenant of the build.' }),
      uuid: t.arg.string({ required: true, description: 'Build uuid.' }),
      offset: t.arg.int({
        description:
          'Sequence number of the last line already received; the stream starts after it (default 0: from the first line).',
      }),
    },
    authScopes: (_root, args) => ({ tenantRead: args.tenant }),
    subscribe: async (_root, args, ctx) => {
      const source = ctx.services.console;
      if (!source) {
        throw unavailable('Build output is not served by this process', 'SERVICE_UNAVAILABLE');
      }
      if (args.offset !== null && args.offset !== undefined && args.offset < 0) {
        throw new GraphQLError('offset must be 0 or more', { extensions: { code: 'BAD_USER_INPUT' } });
      }
      const target = await source(args.tenant, args.uuid);
      // Abortable, so ending the subscription never waits for the build's next line.
      const stop = new AbortController();
      const lines = streamTarget(target, (args.offset ?? 0) + 1, stop.signal);
      const abortable: AsyncIterator<ConsoleChunk> = {
        next: () => lines.next(),
        return: () => {
          stop.abort();
          return lines.return(undefined);
        },
      };
      return new LiveIterator(
        abortable,
        (chunk: ConsoleChunk) => {
          assertStillReadable(ctx, args.tenant);
          return [chunk];
        },
        readAccessRecheck(ctx, args.tenant),
      );
    },
    resolve: (chunk) => chunk,
  }),
);
