/**
 * The CPU time of the PostgreSQL backends that serve a benchmark's database, when the server runs
 * on this machine (read from /proc; null otherwise): with the process's own CPU it is what a change
 * costs the machine. Backends are those of the database at the start and at the end of the run
 * (the pool keeps its sessions while the run lasts); the server's own processes (WAL writer,
 * checkpointer) are not counted.
 */
import { readFileSync } from 'node:fs';
import type { Knex } from 'knex';

/** Clock ticks per second of /proc's CPU times (Linux's USER_HZ). */
const TICKS_PER_SECOND = 100;

export class ServerCpu {
  private constructor(
    private readonly knex: Knex,
    private readonly atStart: Map<number, number>,
  ) {}

  /** Null when the database is not a PostgreSQL server on this machine. */
  static async start(knex: Knex): Promise<ServerCpu | null> {
    const ticks = await backendTicks(knex);
    return ticks === null ? null : new ServerCpu(knex, ticks);
  }

  /** Milliseconds of CPU the backends used since `start`. */
  async elapsedMs(): Promise<number | null> {
    const now = await backendTicks(this.knex);
    if (now === null) {
      return null;
    }
    let ticks = 0;
    for (const [pid, value] of now) {
      ticks += value - (this.atStart.get(pid) ?? 0);
    }
    return (ticks * 1000) / TICKS_PER_SECOND;
  }
}

async function backendTicks(knex: Knex): Promise<Map<number, number> | null> {
  const { rows } = (await knex.raw('SELECT pid FROM pg_stat_activity WHERE datname = current_database()')) as {
    rows: Array<{ pid: number }>;
  };
  const ticks = new Map<number, number>();
  for (const { pid } of rows) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      return null; // another machine's server
    }
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticks.set(pid, Number(fields[11]) + Number(fields[12]));
  }
  return ticks;
}
