/**
 * The cost limit for page sizes passed as variables. graphql-armor's cost rule runs during
 * validation, which sees no variables (and yoga caches validation per document), so it multiplies
 * only literal `first`/`last` and `builds(first: $n)` would slip through at any `$n`. Before an
 * operation runs, this plugin writes the request's page-size variables into the document as
 * literals and applies the same rule, with the same options, again.
 */
import { costLimitRule } from '@escape.tech/graphql-armor-cost-limit';
import {
  GraphQLError,
  Kind,
  validate,
  visit,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type ValueNode,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';

const PAGE_SIZE_ARGUMENTS = new Set(['first', 'last']);
const pageSizeVariablesOf = new WeakMap<DocumentNode, ReadonlySet<string>>();

/** Names of the variables a document passes as `first` or `last` (cached per parsed document). */
function pageSizeVariables(document: DocumentNode): ReadonlySet<string> {
  let names = pageSizeVariablesOf.get(document);
  if (names === undefined) {
    const found = new Set<string>();
    visit(document, {
      Argument(node) {
        if (PAGE_SIZE_ARGUMENTS.has(node.name.value) && node.value.kind === Kind.VARIABLE) {
          found.add(node.value.name.value);
        }
      },
    });
    names = found;
    pageSizeVariablesOf.set(document, names);
  }
  return names;
}

/** A variable's value, or its declared default, when it is a positive integer literal. */
function pageSize(value: unknown, fallback: ValueNode | undefined): number | undefined {
  if (value === undefined && fallback?.kind === Kind.INT) {
    return Number(fallback.value);
  }
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}

/**
 * The document with its page-size variables replaced by their values; null when it passes no
 * page size as a variable (the validation-time rule has already judged it).
 */
export function withPageSizeLiterals(
  document: DocumentNode,
  variables: Readonly<Record<string, unknown>> | null | undefined,
): DocumentNode | null {
  const names = pageSizeVariables(document);
  if (names.size === 0) {
    return null;
  }
  const defaults = new Map<string, ValueNode | undefined>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.OPERATION_DEFINITION) {
      for (const variable of definition.variableDefinitions ?? []) {
        defaults.set(variable.variable.name.value, variable.defaultValue);
      }
    }
  }
  return visit(document, {
    Argument(node) {
      if (!PAGE_SIZE_ARGUMENTS.has(node.name.value) || node.value.kind !== Kind.VARIABLE) {
        return undefined;
      }
      const name = node.value.name.value;
      const size = pageSize(variables?.[name], defaults.get(name));
      return size === undefined ? undefined : { ...node, value: { kind: Kind.INT, value: String(size) } };
    },
  });
}

/** Refuses operations over `maxCost` once their page-size variables are known, on every transport. */
export function useVariablePageSizeCost(maxCost: number): Plugin {
  const refusals: GraphQLError[] = [];
  const rule = costLimitRule({
    maxCost,
    ignoreIntrospection: true,
    exposeLimits: true,
    propagateOnRejection: false,
    onReject: [(_context, error) => refusals.push(error)],
  });
  /** The refusal as yoga reports a failed validation (HTTP 400). */
  const check = (args: ExecutionArgs): GraphQLError[] => {
    const document = withPageSizeLiterals(args.document, args.variableValues);
    if (document === null) {
      return [];
    }
    refusals.length = 0;
    validate(args.schema, document, [rule]);
    return refusals
      .splice(0)
      .map(
        (error) =>
          new GraphQLError(error.message, { extensions: { code: 'GRAPHQL_VALIDATION_FAILED', http: { status: 400 } } }),
      );
  };
  const refuseOverCost = ({
    args,
    setResultAndStopExecution,
  }: {
    args: ExecutionArgs;
    setResultAndStopExecution: (result: ExecutionResult) => void;
  }): void => {
    const errors = check(args);
    if (errors.length > 0) {
      setResultAndStopExecution({ errors });
    }
  };
  return { onExecute: refuseOverCost, onSubscribe: refuseOverCost };
}
