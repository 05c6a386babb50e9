/**
 * Filter inputs of list fields as repository filters. In a GraphQL filter a null field and an
 * absent one both mean "no condition"; repository filters only know absent fields.
 */

/** The fields of a filter input, nulls dropped. */
export type FilterConditions<Input> = { [Field in keyof Input]?: Exclude<Input[Field], null | undefined> };

/** The conditions of a filter input (no conditions for a null or absent filter). */
export function filterConditions<Input extends object>(input: Input | null | undefined): FilterConditions<Input> {
  const conditions: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(input ?? {})) {
    if (value !== null && value !== undefined) {
      conditions[field] = value;
    }
  }
  return conditions as FilterConditions<Input>;
}
