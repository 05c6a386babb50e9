/**
 * Counts the SQL statements a knex instance sends, by kind (verb and table: "insert engine_events",
 * "select buildsets"; BEGIN and COMMIT as themselves). Used by bench/engine-gate.ts and by the
 * statements-per-item test of the engine (test/integration/engine/statements-per-item.test.ts).
 */
import type { Knex } from 'knex';

export class StatementCounter {
  private readonly counts = new Map<string, number>();
  private counting = false;

  constructor(knex: Knex) {
    knex.on('query', (query: { sql: string }) => {
      if (this.counting) {
        const key = statementKind(query.sql.replace(/\d+/g, 'N'));
        this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
      }
    });
  }

  /** Count from now on (from zero). */
  start(): void {
    this.counts.clear();
    this.counting = true;
  }

  stop(): void {
    this.counting = false;
  }

  get total(): number {
    return [...this.counts.values()].reduce((sum, count) => sum + count, 0);
  }

  /** The counts by kind divided by `items`, the largest first, two decimals. */
  perItem(items: number): Array<[string, number]> {
    return [...this.counts.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([kind, count]) => [kind, Number((count / items).toFixed(2))]);
  }
}

/** A statement's verb and table ("insert engine_events", "select buildsets"), or the statement itself (BEGIN). */
export function statementKind(sql: string): string {
  const words = sql.replace(/"/g, '').replace(/\s+/g, ' ').trim().toLowerCase();
  const verb = /^(select|insert|update|delete|with)\b/.exec(words)?.[1];
  if (verb === undefined) {
    return words.slice(0, 40);
  }
  const table = /\b(?:from|into|update)\s+([a-z_]+)/.exec(words)?.[1] ?? '?';
  return `${verb} ${table}`;
}
