/**
 * The last line of defence for secrets (docs/security.md §4): every GraphQL result leaving the
 * process (HTTP, graphql-ws subscriptions, and the REST layer, which runs its operations through
 * the same envelop) has the decrypted values of the loaded secrets masked in its data, errors and
 * extensions. Values never reach these results by design; this catches what a job returned or
 * printed anyway.
 */
import { GraphQLError, type ExecutionResult } from 'graphql';
import { handleStreamOrSingleExecutionResult, type Plugin } from '@envelop/core';
import { createRedactor, type Redactor } from '../secrets/redact';

/** No secrets loaded: nothing to mask. */
export const NO_REDACTION: Redactor = createRedactor([]);

/** Masked copies of results already seen (shared subscription results are masked once). */
const masked = new WeakMap<object, { redactor: Redactor; result: ExecutionResult }>();

/** A copy of the result with every secret value masked (the same object when nothing changes). */
export function redactExecutionResult(result: ExecutionResult, redactor: Redactor): ExecutionResult {
  if (!redactor.active) {
    return result;
  }
  const cached = masked.get(result);
  if (cached?.redactor === redactor) {
    return cached.result;
  }
  const out: ExecutionResult = { ...result };
  if (result.data !== undefined && result.data !== null) {
    out.data = redactor.redactJson(result.data);
  }
  if (result.extensions !== undefined) {
    out.extensions = redactor.redactJson(result.extensions);
  }
  if (result.errors !== undefined) {
    out.errors = result.errors.map((error) => redactError(error, redactor));
  }
  masked.set(result, { redactor, result: out });
  return out;
}

/** Errors keep their class (yoga reads `extensions.http` and masks unexpected errors by it). */
function redactError(error: GraphQLError, redactor: Redactor): GraphQLError {
  const message = redactor.redact(error.message);
  const extensions = redactor.redactJson(error.extensions);
  if (message === error.message && JSON.stringify(extensions) === JSON.stringify(error.extensions)) {
    return error;
  }
  return new GraphQLError(message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    extensions,
  });
}

/** The envelop plugin: results of queries, mutations and every subscription event are masked. */
export function useSecretRedaction(redactor: () => Redactor): Plugin {
  const mask = ({ result, setResult }: { result: ExecutionResult; setResult: (r: ExecutionResult) => void }): void => {
    const current = redactor();
    if (current.active) {
      setResult(redactExecutionResult(result, current));
    }
  };
  return {
    onExecute: () => ({ onExecuteDone: (payload) => handleStreamOrSingleExecutionResult(payload, mask) }),
    onSubscribe: () => ({ onSubscribeResult: (payload) => handleStreamOrSingleExecutionResult(payload, mask) }),
  };
}
