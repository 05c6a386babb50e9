/** REST errors are JSON `{"error": name, "description": message}` with an HTTP status (compat.md A2). */
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

  body(): Record<string, unknown> {
    return { error: this.errorName, description: this.message };
  }
}

/** A 401: the reference's exact JSON body `{description, error, realm}` plus `WWW-Authenticate` (compat.md §6.2). */
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

export const badRequest = (message: string) => new RestError(400, 'BadRequest', message);
export const notFound = (message: string) => new RestError(404, 'NotFound', message);
export const methodNotAllowed = (allow: string[]) =>
  new RestError(405, 'MethodNotAllowed', 'Specified method is invalid for this resource', { Allow: allow.join(', ') });
