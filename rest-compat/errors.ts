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

  body(): { error: string; description: string } {
    return { error: this.errorName, description: this.message };
  }
}

export const badRequest = (message: string) => new RestError(400, 'BadRequest', message);
export const notFound = (message: string) => new RestError(404, 'NotFound', message);
export const methodNotAllowed = (allow: string[]) =>
  new RestError(405, 'MethodNotAllowed', 'Specified method is invalid for this resource', { Allow: allow.join(', ') });
