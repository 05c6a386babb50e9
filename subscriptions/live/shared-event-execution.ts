/**
 * Executes subscription events with a fresh context per event (new Pothos caches and loaders,
 * docs/live.md#authentication-and-protocol) and, for events the live hub marks as shared, only once per distinct
 * operation: every subscriber of the same document and variables receives the same result for
 * the same shared event. Authorization happens before an event is yielded (per subscriber), and
 * a shared event's result does not depend on who asked, so 5,000 identical status subscribers
 * cost one execution per change instead of 5,000 (and one serialisation, see
 * `shared-serialisation.ts`).
 */
import {
  Kind,
  createSourceEventStream,
  execute,
  print,
  visit,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
} from 'graphql';
import { isAsyncIterable, makeSubscribe, mapAsyncIterator, type Plugin } from '@envelop/core';
import { markSharedResult } from './shared-serialisation';

/** An event value whose execution result may be shared between subscribers. */
export interface SharedLiveEvent {
  readonly shared: true;
  /**
   * The subscription field's arguments were applied when the value was made (filters), so
   * executing it depends only on the rest of the operation: subscribers that differ only in
   * those arguments (a resume point, say) share one execution.
   */
  readonly rootArgumentsResolved?: true;
}

/** Names of the variables an operation uses anywhere but in the arguments of its root fields. */
function variablesBeyondRootArguments(document: DocumentNode): Set<string> {
  const names = new Set<string>();
  const collect = (node: Parameters<typeof visit>[0]): void => {
    visit(node, {
      Variable(variable) {
        names.add(variable.name.value);
      },
    });
  };
  for (const definition of document.definitions) {
    if (definition.kind === Kind.OPERATION_DEFINITION) {
      for (const directive of definition.directives ?? []) {
        collect(directive);
      }
      for (const selection of definition.selectionSet.selections) {
        if (selection.kind !== Kind.FIELD) {
          collect(selection);
          continue;
        }
        for (const directive of selection.directives ?? []) {
          collect(directive);
        }
        if (selection.selectionSet) {
          collect(selection.selectionSet);
        }
      }
    } else {
      collect(definition);
    }
  }
  return names;
}

export function isSharedLiveEvent(value: unknown): value is SharedLiveEvent {
  return typeof value === 'object' && value !== null && (value as Partial<SharedLiveEvent>).shared === true;
}

type EventResult = ExecutionResult | Promise<ExecutionResult>;

/** Results per shared event, then per operation key; entries go when the event object does. */
const sharedResults = new WeakMap<object, Map<string, EventResult>>();

/** The envelop plugin; `freshContext` returns the context fields to replace for every event. */
export function useLiveSubscriptionEvents(freshContext: () => Record<PropertyKey, unknown>): Plugin {
  return {
    onSubscribe({ setSubscribeFn }) {
      setSubscribeFn(
        makeSubscribe(async (args: ExecutionArgs) => {
          const stream = await createSourceEventStream(
            args.schema,
            args.document,
            args.rootValue,
            args.contextValue,
            args.variableValues ?? undefined,
            args.operationName,
            args.subscribeFieldResolver,
          );
          if (!isAsyncIterable(stream)) {
            return stream;
          }
          const text = print(args.document);
          const operationKey = `${args.operationName ?? ''}\n${JSON.stringify(args.variableValues ?? {})}\n${text}`;
          let resolvedKey: string | undefined;
          const keyFor = (payload: SharedLiveEvent): string => {
            if (!payload.rootArgumentsResolved) {
              return operationKey;
            }
            if (resolvedKey === undefined) {
              const used = variablesBeyondRootArguments(args.document);
              const variables = Object.entries(args.variableValues ?? {}).filter(([name]) => used.has(name));
              resolvedKey = `${args.operationName ?? ''}\n${JSON.stringify(variables)}\n${text}\nresolved`;
            }
            return resolvedKey;
          };
          const run = (payload: unknown): EventResult =>
            execute({
              ...args,
              rootValue: payload,
              contextValue: { ...(args.contextValue as Record<PropertyKey, unknown>), ...freshContext() },
            });
          return mapAsyncIterator(stream, (payload: unknown) => {
            if (!isSharedLiveEvent(payload)) {
              return run(payload);
            }
            let results = sharedResults.get(payload);
            if (!results) {
              results = new Map();
              sharedResults.set(payload, results);
            }
            const key = keyFor(payload);
            const cached = results.get(key);
            if (cached) {
              return cached;
            }
            const executed = run(payload);
            const result = executed instanceof Promise ? executed.then(markSharedResult) : markSharedResult(executed);
            results.set(key, result);
            return result;
          });
        }),
      );
    },
  };
}
