/** Maps the engine's operation results to the schema's typed errors. */
import { GraphQLError } from 'graphql';
import type { Engine } from '../../src/engine/engine';
import type { OperationError, OperationResult } from '../../src/engine/operations';
import type { GraphQLContext } from './context';
import { InvalidInputError, NotFoundError } from './errors';

/** The engine, or a top-level error when this process serves no engine API. */
export function requireEngine(ctx: GraphQLContext): Engine {
  if (!ctx.services.engine) {
    throw new GraphQLError('The engine is not available in this process', {
      extensions: { code: 'SERVICE_UNAVAILABLE' },
    });
  }
  return ctx.services.engine;
}

/** The typed error for an engine operation failure. */
export function operationError(error: OperationError, key: string): NotFoundError | InvalidInputError {
  switch (error.code) {
    case 'UNKNOWN_TENANT':
      return new NotFoundError('Tenant', key, error.message);
    case 'UNKNOWN_PROJECT':
      return new NotFoundError('Project', key, error.message);
    case 'NOT_FOUND':
      return new NotFoundError('Autohold', key, error.message);
    case 'UNKNOWN_PIPELINE':
      return new InvalidInputError(error.message, 'pipeline');
    case 'UNKNOWN_CHANGE':
    case 'CHANGE_NOT_IN_PIPELINE':
      return new InvalidInputError(error.message, 'change');
    case 'WRONG_MANAGER':
      return new InvalidInputError(error.message, 'pipeline');
    case 'INVALID_INPUT':
      return new InvalidInputError(error.message, null);
  }
}

/** The value of a successful result; throws the typed error otherwise (the errors plugin returns it as data). */
export function unwrap<T>(result: OperationResult<T>, key: string): T {
  if (!result.ok) {
    throw operationError(result.error, key);
  }
  return result.value;
}
