/** Errors in words: what the dashboard says for a failed request or a typed mutation error. */
import { RequestError } from './client';

const BY_CODE: Record<string, string> = {
  UNAUTHENTICATED: 'You need to sign in for this (or your token has expired).',
  FORBIDDEN:
    'Permission denied: this needs access your sign-in does not give (an admin action, or a tenant you may not read).',
  NETWORK: 'The server cannot be reached. The dashboard keeps trying.',
  RATE_LIMITED: 'Too many control requests in a short time: wait a moment and try again.',
  BUILD_NOT_STARTED: 'The build has not started yet.',
  SERVICE_UNAVAILABLE: 'The live log is not available from this server (the build runs in another process).',
};

/** A sentence for a failed request; the server's own message when it is more precise than the code's. */
export function describeError(error: RequestError | Error): string {
  if (error instanceof RequestError && error.code !== undefined && BY_CODE[error.code] !== undefined) {
    const general = BY_CODE[error.code];
    return error.code === 'NETWORK' || error.message === '' ? general : `${general} (${error.message})`;
  }
  return error.message;
}

/** A typed error of a mutation payload (`NotFoundError`, `InvalidInputError`, `ConflictError`) in words. */
export function describeTypedError(payload: { __typename: string; message?: string; field?: string | null }): string {
  const message = payload.message ?? 'The request failed.';
  switch (payload.__typename) {
    case 'NotFoundError':
      return `Not found: ${message}`;
    case 'InvalidInputError':
      return payload.field ? `Invalid ${payload.field}: ${message}` : `Invalid input: ${message}`;
    case 'ConflictError':
      return `Not possible now: ${message}`;
    default:
      return message;
  }
}
