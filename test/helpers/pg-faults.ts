/**
 * Fault injection on PostgreSQL for tests: terminate chosen sessions of a test database, wait
 * for a condition with a deadline, and manual timers that fire only when the test says so.
 */
import net from 'node:net';
import type { Knex } from 'knex';
import type { Timers } from '../../src/store/links';

/**
 * Terminate the sessions of the current database (other than the caller's) matching `where`,
 * a condition on `pg_stat_activity`; returns how many were terminated.
 */
export async function terminateSessions(knex: Knex, where: string, bindings: readonly unknown[] = []): Promise<number> {
  const result = (await knex.raw(
    `SELECT count(*) FILTER (WHERE pg_terminate_backend(pid))::int AS terminated FROM pg_stat_activity
     WHERE datname = current_database() AND pid <> pg_backend_pid() AND (${where})`,
    bindings as Knex.RawBinding[],
  )) as { rows: Array<{ terminated: number }> };
  return result.rows[0]?.terminated ?? 0;
}

/** Sessions of the current database matching `where` (other than the caller's). */
export async function countSessions(knex: Knex, where: string, bindings: readonly unknown[] = []): Promise<number> {
  const result = (await knex.raw(
    `SELECT count(*)::int AS n FROM pg_stat_activity
     WHERE datname = current_database() AND pid <> pg_backend_pid() AND (${where})`,
    bindings as Knex.RawBinding[],
  )) as { rows: Array<{ n: number }> };
  return result.rows[0]?.n ?? 0;
}

/**
 * Resolve once `condition` holds, checking every `everyMs`; reject with `what` after
 * `timeoutMs`. For states of another process or of PostgreSQL, which send no event.
 */
export async function eventually(
  what: string,
  condition: () => Promise<boolean> | boolean,
  timeoutMs = 15_000,
  everyMs = 50,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown = null;
  for (;;) {
    try {
      if (await condition()) {
        return;
      }
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what}${lastError ? `: ${String(lastError)}` : ''}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** Timers that fire only when the test calls `fireAll`. */
export class ManualTimers implements Timers {
  private next = 1;
  private readonly pending = new Map<number, { callback: () => void; ms: number }>();
  /** Delays asked for, in order (backoff checks). */
  readonly requested: number[] = [];
  private readonly waiters: Array<() => void> = [];

  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.next;
    this.next += 1;
    this.pending.set(id, { callback, ms });
    this.requested.push(ms);
    this.waiters.splice(0).forEach((wake) => wake());
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }

  get size(): number {
    return this.pending.size;
  }

  /** Resolves once at least one timer is pending. */
  async waitForTimer(): Promise<void> {
    while (this.pending.size === 0) {
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  /** Run every pending timer now. */
  fireAll(): void {
    const due = [...this.pending.values()];
    this.pending.clear();
    due.forEach(({ callback }) => callback());
  }
}

/**
 * A TCP proxy in front of PostgreSQL that the test can cut (every connection closed, new ones
 * refused) and restore on the same port: a network fault for one client, the server untouched.
 */
export class TcpProxy {
  private readonly sockets = new Set<net.Socket>();
  private server: net.Server | null = null;

  private constructor(
    private readonly target: { host: string; port: number },
    readonly port: number,
  ) {}

  /** A proxy on a free port forwarding to the server of `url`. */
  static async start(url: string): Promise<TcpProxy> {
    const parsed = new URL(url);
    const probe = net.createServer();
    const port = await new Promise<number>((resolve) =>
      probe.listen(0, '127.0.0.1', () => resolve((probe.address() as net.AddressInfo).port)),
    );
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const proxy = new TcpProxy({ host: parsed.hostname, port: Number(parsed.port || 5432) }, port);
    await proxy.restore();
    return proxy;
  }

  /** `url` with the proxy's address instead of the server's. */
  url(url: string): string {
    const parsed = new URL(url);
    parsed.hostname = '127.0.0.1';
    parsed.port = String(this.port);
    return parsed.toString();
  }

  /** Close every proxied connection and stop accepting new ones. */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const socket of this.sockets) {
      socket.destroy();
    }
    this.sockets.clear();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  }

  /** Accept connections again. */
  async restore(): Promise<void> {
    const server = net.createServer((client) => {
      const upstream = net.connect(this.target.port, this.target.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('error', () => socket.destroy());
        socket.on('close', () => {
          this.sockets.delete(socket);
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', () => resolve()));
    this.server = server;
  }
}
