/** Small conversions shared by the shape mappers. */
import { RestError, badRequest, notFound } from './errors';

/**
 * GraphQL DateTime (ISO-8601 UTC) -> the reference's ISO-naive `YYYY-MM-DDTHH:MM:SS` (docs/rest.md#wire-conventions).
 */
export function isoNaive(value: string | null): string | null {
  if (value === null) {
    return null;
  }
  // The DateTime scalar serializes with toISOString (UTC, `Z`): its first 19 characters already
  // are the answer; anything else is normalized through Date.
  return CANONICAL_UTC.test(value) ? value.slice(0, 19) : new Date(value).toISOString().slice(0, 19);
}

const CANONICAL_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** An integer parsed from a string such as a patchset; null when it is not one. */
export function integerOrNull(value: string | null): number | null {
  return value !== null && /^\d+$/.test(value) ? Number(value) : null;
}

interface TypedResult {
  __typename: string;
}

/**
 * The member of a `Tenant | NotFoundError` (or `X | NotFoundError`) union that is not the error;
 * the error becomes a 404 with its message (`Tenant not found`, `Build not found`...).
 */
export function orNotFound<T extends TypedResult, E extends { __typename: 'NotFoundError'; errorMessage: string }>(
  result: T | E | null,
  fallback: string,
): Exclude<T, E> {
  if (result === null) {
    throw notFound(fallback);
  }
  if (isNotFound(result)) {
    throw notFound(result.errorMessage);
  }
  return result as Exclude<T, E>;
}

function isNotFound(result: TypedResult): result is { __typename: 'NotFoundError'; errorMessage: string } {
  return result.__typename === 'NotFoundError';
}

/** Typed errors the REST layer maps to a status (the `__typename` of a GraphQL error member). */
type TypedErrorName = 'NotFoundError' | 'InvalidInputError' | 'JobGraphError' | 'ConflictError';

/**
 * The success member of a union that may also hold NotFoundError (404), InvalidInputError (400),
 * ConflictError (409) or JobGraphError (422: the configuration cannot be frozen; the reference
 * answers 500).
 */
export function orTypedError<T extends TypedResult>(
  result: T | null,
  fallback: string,
): Exclude<T, { __typename: TypedErrorName }> {
  if (result === null) {
    throw notFound(fallback);
  }
  const failure = result as TypedResult & { errorMessage?: string };
  const message = failure.errorMessage ?? fallback;
  switch (result.__typename) {
    case 'NotFoundError':
      throw notFound(message);
    case 'InvalidInputError':
      throw badRequest(message);
    case 'ConflictError':
      throw new RestError(409, 'Conflict', message);
    case 'JobGraphError':
      throw new RestError(422, 'JobGraphError', message);
    default:
      return result as Exclude<T, { __typename: TypedErrorName }>;
  }
}
