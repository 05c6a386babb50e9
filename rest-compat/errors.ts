/**
 * REST errors are JSON `{"error": name, "description": message}` with an HTTP status
 * (docs/rest.md#deliberate-differences-from-the-reference).
 */
import type { DeniedResponse } from '../src/auth/gate';

export class RestError extends Error {
  constructor(
    readonly status: number,
    readonly errorName: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'RestError';
  }

  /** The JSON body. */
  body(): Record<string, unknown> {
    return { error: this.errorName, description: this.message };
  }
}

/**
 * A refusal of the security core (src/auth/gate.ts): 401 with the reference's JSON and
 * `WWW-Authenticate`, or 403 with the JSON error body the OpenAPI documents (the reference
 * sends an empty one; docs/rest.md#deliberate-differences-from-the-reference).
 */
export class RestDeniedError extends RestError {
  constructor(readonly denied: DeniedResponse) {
    super(
      denied.status,
      denied.status === 401 ? (denied.body?.error ?? 'Unauthorized') : 'Forbidden',
      denied.message,
      denied.headers,
    );
    this.name = 'RestDeniedError';
  }

  override body(): Record<string, unknown> {
    return this.denied.body === null ? super.body() : { ...this.denied.body };
  }
}

/**
 * A 401: the reference's exact JSON body `{description, error, realm}` plus `WWW-Authenticate`
 * (docs/security.md#validation-and-the-401-answer).
 */
export class RestAuthError extends RestError {
  constructor(
    errorName: string,
    message: string,
    readonly realm: string | null,
  ) {
    super(401, errorName, message, {
      'WWW-Authenticate': `Bearer realm="${realm ?? 'None'}" error="${errorName}" error_description="${message.replace(/"/g, '\\"')}"`,
    });
    this.name = 'RestAuthError';
  }

  override body(): Record<string, unknown> {
    return { description: this.message, error: this.errorName, realm: this.realm };
  }
}

/**
 * 503 while the database cannot be reached (a refused or lost connection, no connection from the
 * pool in time): the request may succeed later (docs/rest.md#errors-while-the-database-is-down).
 */
export const databaseUnavailable = () =>
  new RestError(503, 'ServiceUnavailable', 'The database is unavailable; try again later.', { 'Retry-After': '5' });
export const badRequest = (message: string) => new RestError(400, 'BadRequest', message);
export const notFound = (message: string) => new RestError(404, 'NotFound', message);
export const methodNotAllowed = (allow: string[]) =>
  new RestError(405, 'MethodNotAllowed', 'Specified method is invalid for this resource', { Allow: allow.join(', ') });
