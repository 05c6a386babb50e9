/**
 * The classes of the typed errors (their GraphQL types are in errors.ts). Kept apart from the
 * builder so that builder plugins (input-hygiene.ts) can throw them.
 */

/** A requested object does not exist (unknown tenant, project, build uuid...). */
export class NotFoundError extends Error {
  constructor(
    readonly resource: string,
    readonly key: string,
    message = `${resource} not found`,
  ) {
    super(message);
    this.name = 'NotFoundError';
  }
}

/** Input was well-typed but invalid. */
export class InvalidInputError extends Error {
  constructor(
    message: string,
    readonly field: string | null = null,
  ) {
    super(message);
    this.name = 'InvalidInputError';
  }
}

/** The request conflicts with the current state (for example validating an upload that is not ready). */
export class ConflictError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConflictError';
  }
}
