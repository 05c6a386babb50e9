/** Regrouping of batch-loaded rows for DataLoader batch functions. */
/**
 * Splits rows loaded for many parents into one list per requested key, in key order (the
 * contract of a DataLoader batch function).
 */
export function groupBy<Row, Item>(
  keys: readonly number[],
  rows: readonly Row[],
  keyOf: (row: Row) => number,
  itemOf: (row: Row) => Item,
): Item[][] {
  const groups = new Map<number, Item[]>();
  for (const row of rows) {
    const key = keyOf(row);
    const group = groups.get(key);
    if (group) {
      group.push(itemOf(row));
    } else {
      groups.set(key, [itemOf(row)]);
    }
  }
  return keys.map((key) => groups.get(key) ?? []);
}
