/**
 * Counts the SQL statements a knex instance sends, by kind (verb and table: "insert engine_events",
 * "select buildsets"; BEGIN and COMMIT as themselves). Used by bench/engine-gate.ts and by the
 * statements-per-item test of the engine (test/integration/engine/statements-per-item.test.ts).
 * A statement is counted by its text while the run lasts and given its kind only when asked: a
 * kind takes several passes over a text of kilobytes, which cost the benchmark's process about 1 %
 * of its CPU when they ran for each statement.
 */
import type { Knex } from 'knex';

export class StatementCounter {
  /** Statements sent, by text. */
  private readonly texts = new Map<string, number>();
  private counting = false;

  constructor(knex: Knex) {
    knex.on('query', (query: { sql: string }) => {
      if (this.counting) {
        this.texts.set(query.sql, (this.texts.get(query.sql) ?? 0) + 1);
      }
    });
  }

  /** Count from now on (from zero). */
  start(): void {
    this.texts.clear();
    this.counting = true;
  }

  stop(): void {
    this.counting = false;
  }

  get total(): number {
    return [...this.texts.values()].reduce((sum, count) => sum + count, 0);
  }

  /** The counts by kind divided by `items`, the largest first, two decimals. */
  perItem(items: number): Array<[string, number]> {
    const counts = new Map<string, number>();
    for (const [text, count] of this.texts) {
      const kind = statementKind(text.replace(/\d+/g, 'N'));
      counts.set(kind, (counts.get(kind) ?? 0) + count);
    }
    return [...counts.entries()]
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
