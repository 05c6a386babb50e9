/**
 * Small builders for the JSON schemas (2020-12, as OpenAPI 3.1 uses) of REST bodies. The route
 * table holds these schemas; the OpenAPI document and the contract tests read them.
 */
export type JsonSchema = { [key: string]: unknown };

export const str = (description?: string): JsonSchema => ({ type: 'string', ...(description ? { description } : {}) });
export const int = (description?: string): JsonSchema => ({ type: 'integer', ...(description ? { description } : {}) });
export const num = (description?: string): JsonSchema => ({ type: 'number', ...(description ? { description } : {}) });
export const bool = (description?: string): JsonSchema => ({
  type: 'boolean',
  ...(description ? { description } : {}),
});
export const anyJson = (description?: string): JsonSchema => (description ? { description } : {});

/** ISO-naive UTC time `YYYY-MM-DDTHH:MM:SS` (docs/rest.md#wire-conventions). */
export const isoNaive = (description?: string): JsonSchema => ({
  type: 'string',
  pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}$',
  ...(description ? { description } : {}),
});

/** The schema, or null. */
export function nullable(schema: JsonSchema): JsonSchema {
  const type = schema.type;
  if (typeof type === 'string') {
    return { ...schema, type: [type, 'null'] };
  }
  return { anyOf: [schema, { type: 'null' }] };
}

export const arrayOf = (items: JsonSchema, description?: string): JsonSchema => ({
  type: 'array',
  items,
  ...(description ? { description } : {}),
});

/**
 * A closed object: `required` keys must be present, `optional` keys may be, nothing else may.
 * Closed objects make the contract tests catch extra and missing keys alike.
 */
export function object(
  required: Record<string, JsonSchema>,
  optional: Record<string, JsonSchema> = {},
  description?: string,
): JsonSchema {
  return {
    type: 'object',
    properties: { ...required, ...optional },
    required: Object.keys(required),
    additionalProperties: false,
    ...(description ? { description } : {}),
  };
}

/** An object whose keys are free-form (e.g. artifact metadata). */
export const freeObject = (description?: string): JsonSchema => ({
  type: 'object',
  ...(description ? { description } : {}),
});

/** The JSON error body of every non-401 error (docs/rest.md#deliberate-differences-from-the-reference). */
export const errorBody = object({ error: str('Error name, e.g. NotFound'), description: str('What went wrong') });

/** The 401 body, kept exactly as the reference sends it (docs/security.md#validation-and-the-401-answer). */
export const authErrorBody = object({
  error: str('Auth error name, e.g. MissingAuthError'),
  description: str('What went wrong'),
  realm: nullable(str('Authentication realm')),
});
