/**
 * Introspection at a bounded cost (docs/live.md#introspection). An introspection-only operation
 * (every root field is `__schema`, `__type` or `__typename`) always gives the same answer for
 * the same document and variables, so it is executed once and its result (and, over HTTP, its
 * JSON) served from a small cache; executions of documents not cached yet run at most
 * `concurrency` at a time, and identical ones waiting share one execution. A flood of
 * introspection queries thus costs a few executions and no serialisation per request, and the
 * rest of the server (health checks included) keeps its share of the event loop.
 */
import { Kind, type DocumentNode, type ExecutionResult, type OperationDefinitionNode } from 'graphql';
import { createGraphQLError, type Plugin } from 'graphql-yoga';

const INTROSPECTION_FIELDS = new Set(['__schema', '__type', '__typename']);
/** Distinct introspection documents (with their variables) kept. */
const CACHE_SIZE = 16;
/** Introspection executions waiting for their turn before new ones are refused. */
const MAX_WAITING = 256;

function operationOf(document: DocumentNode, name: string | null | undefined): OperationDefinitionNode | undefined {
  const operations = document.definitions.filter(
    (definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION,
  );
  return name ? operations.find((operation) => operation.name?.value === name) : operations[0];
}

/** Whether the operation asks only for introspection fields at its root. */
export function isIntrospectionOnly(document: DocumentNode, operationName?: string | null): boolean {
  const operation = operationOf(document, operationName);
  return (
    operation !== undefined &&
    operation.operation === 'query' &&
    operation.selectionSet.selections.every(
      (selection) => selection.kind === Kind.FIELD && INTROSPECTION_FIELDS.has(selection.name.value),
    )
  );
}

/**
 * The cache key of an introspection operation: its name and the values of the variables it
 * declares (others do not change its answer). Null when the values cannot be written as JSON
 * (nested too deep for the stack): such a request is executed normally, and GraphQL refuses it.
 */
function cacheKey(
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Readonly<Record<string, unknown>> | null | undefined,
): string | null {
  const declared = operationOf(document, operationName)?.variableDefinitions ?? [];
  const values = Object.fromEntries(
    declared
      .map((definition) => definition.variable.name.value)
      .filter((name) => variables != null && Object.hasOwn(variables, name))
      .map((name) => [name, variables?.[name]]),
  );
  try {
    return `${operationName ?? ''}\n${JSON.stringify(values)}`;
  } catch {
    return null;
  }
}

/** At most `limit` holders at once; the others wait in arrival order. */
class Gate {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: number) {}

  get queued(): number {
    return this.waiting.length;
  }

  /** Wait for a slot; the returned function gives it back (once). */
  async acquire(): Promise<() => void> {
    if (this.running >= this.limit) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running += 1;
    }
    let released = false;
    return () => {
      if (released) {
        return;
      }
      released = true;
      const next = this.waiting.shift();
      if (next) {
        next(); // the slot passes on
      } else {
        this.running -= 1;
      }
    };
  }
}

/** The yoga plugin; `concurrency` is `graphql.introspectionConcurrency`. */
export function useIntrospectionGate(concurrency: number): Plugin {
  const gate = new Gate(concurrency);
  /** Results by document (yoga parses each distinct text once), then by operation and variables. */
  const results = new WeakMap<DocumentNode, Map<string, Promise<ExecutionResult>>>();
  const order: Array<{ document: DocumentNode; key: string }> = [];
  /** Requests answered from the cache, and the JSON of each result served. */
  const served = new WeakSet<object>();
  const json = new WeakMap<object, Uint8Array<ArrayBuffer>>();

  const remember = (document: DocumentNode, key: string, result: Promise<ExecutionResult>): void => {
    let byKey = results.get(document);
    if (!byKey) {
      byKey = new Map();
      results.set(document, byKey);
    }
    byKey.set(key, result);
    order.push({ document, key });
    if (order.length > CACHE_SIZE) {
      const evicted = order.shift();
      if (evicted) {
        results.get(evicted.document)?.delete(evicted.key);
      }
    }
  };

  return {
    onExecute({ args, setExecuteFn, executeFn }) {
      if (!isIntrospectionOnly(args.document, args.operationName)) {
        return;
      }
      const key = cacheKey(args.document, args.operationName, args.variableValues);
      if (key === null) {
        return;
      }
      const request = (args.contextValue as { request?: object }).request;
      setExecuteFn(async (execArgs) => {
        if (gate.queued >= MAX_WAITING) {
          return {
            errors: [
              createGraphQLError('Too many introspection queries at once; try again later', {
                extensions: { code: 'TOO_MANY_REQUESTS', http: { status: 429 } },
              }),
            ],
          };
        }
        // The slot is held until the answer has been processed and written (the next turn of
        // the event loop), so waiting introspection requests cost nothing meanwhile.
        const release = await gate.acquire();
        setTimeout(release, 0);
        let result = results.get(args.document)?.get(key);
        if (!result) {
          result = Promise.resolve(executeFn(execArgs) as ExecutionResult | Promise<ExecutionResult>);
          remember(args.document, key, result);
          const forget = (): void => {
            results.get(args.document)?.delete(key); // only complete answers are kept
          };
          result.then((value) => (value.errors?.length ? forget() : undefined), forget);
        }
        if (request) {
          served.add(request);
        }
        return result;
      });
    },
    onResultProcess({ request, result, acceptableMediaTypes, setResultProcessor }) {
      if (!served.has(request) || Array.isArray(result) || 'errors' in result) {
        return;
      }
      const mediaType = acceptableMediaTypes.find(
        (type) => type === 'application/graphql-response+json' || type === 'application/json',
      );
      if (!mediaType) {
        return;
      }
      setResultProcessor((input, fetchAPI) => {
        let body = json.get(input);
        if (body === undefined) {
          body = new TextEncoder().encode(JSON.stringify(input));
          json.set(input, body);
        }
        return new fetchAPI.Response(body, {
          status: 200,
          headers: { 'content-type': `${mediaType}; charset=utf-8` },
        });
      }, mediaType);
    },
  };
}
