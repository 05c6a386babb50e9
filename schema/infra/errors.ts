/**
 * Typed errors (errors plugin): expected failures are data in the result, not thrown strings.
 * Domain code throws these classes; fields list the ones they can return with
 * `errors: { types: [...] }` and the plugin turns them into union members.
 */
import { builder } from './builder';
import { ConflictError, InvalidInputError, NotFoundError } from './error-classes';

export { ConflictError, InvalidInputError, NotFoundError };

export const ErrorInterface = builder.interfaceRef<Error>('Error').implement({
  description: 'An expected failure returned as data.',
  fields: (t) => ({
    message: t.exposeString('message', { nullable: false, description: 'Human-readable description of the failure.' }),
  }),
});

builder.objectType(NotFoundError, {
  name: 'NotFoundError',
  description: 'The requested object does not exist.',
  interfaces: [ErrorInterface],
  fields: (t) => ({
    resource: t.exposeString('resource', {
      nullable: false,
      description: 'Kind of object that was looked up (Tenant, Project, Build...).',
    }),
    key: t.exposeString('key', { nullable: false, description: 'The name or id that was not found.' }),
  }),
});

builder.objectType(InvalidInputError, {
  name: 'InvalidInputError',
  description: 'The input was rejected; `field` names the offending input field when there is one.',
  interfaces: [ErrorInterface],
  fields: (t) => ({
    field: t.exposeString('field', { description: 'Name of the offending input field, if any.' }),
  }),
});

builder.objectType(ConflictError, {
  name: 'ConflictError',
  description: 'The operation conflicts with the current state of the object.',
  interfaces: [ErrorInterface],
  fields: () => ({}),
});
