/**
 * One mapping between the store's `snake_case` columns and the records' `camelCase` fields, in
 * place of a `field: row.column` line per field in every repository: a record's field is its
 * column's name in camel case (`buildset_id` is `buildsetId`, `md5sum` stays `md5sum`), checked
 * by the compiler through `Fields`. Values are taken as they are; a field that is converted
 * (an id read as a number, a default) is overridden after the pick, which keeps its place.
 */

/** `project_canonical` → `projectCanonical`, as a type. */
type Camel<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : S;

/** A row type with its columns under their field names. */
export type Fields<Row> = { [Column in keyof Row & string as Camel<Column>]: Row[Column] };

/** The column of a field: `buildsetId` → `buildset_id`. */
export function columnOf(field: string): string {
  return field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/** `fields` of `row`, each read from its column, in the order given. */
export function pickFields<Row extends object, Field extends keyof Fields<Row> & string>(
  row: Row,
  fields: readonly Field[],
): Pick<Fields<Row>, Field> {
  const values = row as Record<string, unknown>;
  const record: Record<string, unknown> = {};
  for (const field of fields) {
    record[field] = values[columnOf(field)];
  }
  return record as Pick<Fields<Row>, Field>;
}
