/**
 * node-postgres returns bigint (int8) columns as strings by default. Our ids stay far below
 * 2^53, so parse them as numbers; PGlite already does the same.
 */
import pg from 'pg';

let installed = false;

export function pgTypeParsers(): void {
  if (installed) {
    return;
  }
  installed = true;
  const INT8_OID = 20;
  pg.types.setTypeParser(INT8_OID, (value: string) => Number(value));
}
