/**
 * Database links (docs/operations.md#database-links): the state every pool and dedicated
 * connection reports to `/health/ready`, which errors mean "the connection is gone" (retry)
 * rather than "the statement is wrong" (give up), and the reconnect loop of dedicated
 * connections with exponential backoff on injectable timers.
 */

/** One link as `/health/ready` reports it (docs/operations.md#health). */
export interface LinkState {
  /** `database`, `bus.listen`, `bus.publish`, ... */
  name: string;
  up: boolean;
  /** When the link last went up or down. */
  since: Date;
  /** Why it is down (null while up). */
  error: string | null;
}

/** Something that keeps links and reports their state. */
export interface LinkReporter {
  links(): LinkState[];
}

/** The timers a reconnect loop uses; tests pass a manual implementation. */
export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const REAL_TIMERS: Timers = {
  setTimeout: (callback, ms) => {
    const handle = setTimeout(callback, ms);
    handle.unref?.();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface BackoffPolicy {
  /** Delay before the first retry. */
  initialMs: number;
  /** Largest delay. */
  maxMs: number;
  /** Growth per failed attempt. */
  factor: number;
  /** Up to this fraction of the delay is added at random, so that processes do not retry in step. */
  jitter: number;
}

/**
 * Reconnects start at 100 ms and double up to 2 s: after PostgreSQL is back a link comes back
 * within about 2 s, well inside the 10 s the operations guide promises for readiness.
 */
export const DEFAULT_BACKOFF: BackoffPolicy = { initialMs: 100, maxMs: 2000, factor: 2, jitter: 0.2 };

/** The delay before retry number `attempt` (0 for the first retry). */
export function backoffDelay(policy: BackoffPolicy, attempt: number, random: () => number = Math.random): number {
  const base = Math.min(policy.maxMs, policy.initialMs * policy.factor ** Math.max(0, attempt));
  return Math.round(base * (1 + policy.jitter * random()));
}

/** SQLSTATE classes and codes that mean the session is gone or cannot be had right now. */
const CONNECTION_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
const CONNECTION_MESSAGES =
  /connection terminated|terminating connection|connection timeout|timeout expired|server closed the connection|client has encountered a connection error|not queryable|Connection ended|Knex: Timeout acquiring a connection/i;

/** True when `error` says the database connection failed (worth a retry), not the statement. */
export function isConnectionError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) {
    return false;
  }
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (code.startsWith('08') || CONNECTION_SQLSTATES.has(code) || NETWORK_CODES.has(code)) {
      return true;
    }
  }
  return typeof message === 'string' && CONNECTION_MESSAGES.test(message);
}

/** A short, credential-free description of an error for health output and logs. */
export function describeError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === 'string' && !error.message.includes(code) ? `${error.message} (${code})` : error.message;
  }
  return String(error);
}

/** A link's state that remembers when it last changed. */
export class LinkTracker {
  private current: LinkState;
  private readonly listeners = new Set<(state: LinkState) => void>();

  constructor(
    name: string,
    up: boolean,
    private readonly now: () => Date = () => new Date(),
    initialError: string | null = up ? null : 'not connected yet',
  ) {
    this.current = { name, up, since: now(), error: initialError };
  }

  get state(): LinkState {
    return { ...this.current };
  }

  up(): void {
    if (!this.current.up) {
      this.change({ ...this.current, up: true, since: this.now(), error: null });
    }
  }

  down(error: unknown): void {
    const text = describeError(error);
    if (this.current.up) {
      this.change({ ...this.current, up: false, since: this.now(), error: text });
    } else if (this.current.error !== text) {
      this.current = { ...this.current, error: text }; // still down, now for another reason
    }
  }

  /** Called on every change of `up` (tests wait on these instead of sleeping). */
  onChange(listener: (state: LinkState) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  private change(state: LinkState): void {
    this.current = state;
    for (const listener of [...this.listeners]) {
      try {
        listener({ ...state });
      } catch {
        // A listener's failure is its own.
      }
    }
  }
}

export interface ReconnectorOptions<T> {
  /** Open the connection and make it ready (LISTEN, catch-up); throws when it cannot. */
  connect(): Promise<T>;
  /** Close a connection that was lost or is no longer wanted; must not throw. */
  dispose(connection: T): Promise<void>;
  link: LinkTracker;
  timers?: Timers;
  backoff?: BackoffPolicy;
  random?: () => number;
  /** Told about each failed attempt (logging). */
  onAttemptFailed?(error: unknown, attempt: number, retryInMs: number): void;
}

/**
 * Keeps one dedicated connection open: connects, and after a failure or a loss (the owner calls
 * `lost`) connects again with backoff, until `close`. `ready()` resolves once connected.
 */
export class Reconnector<T> {
  private connection: T | null = null;
  private attempt = 0;
  private timer: unknown = null;
  private closed = false;
  private connecting: Promise<void> | null = null;
  private waiters: Array<() => void> = [];
  private readonly timers: Timers;
  private readonly backoff: BackoffPolicy;

  constructor(private readonly options: ReconnectorOptions<T>) {
    this.timers = options.timers ?? REAL_TIMERS;
    this.backoff = options.backoff ?? DEFAULT_BACKOFF;
  }

  /** The open connection, or null while down. */
  get current(): T | null {
    return this.connection;
  }

  start(): void {
    if (!this.closed && this.connection === null && this.connecting === null && this.timer === null) {
      this.connecting = this.tryConnect();
    }
  }

  /** Resolves once a connection is open (at once when it is, or when closed). */
  ready(): Promise<void> {
    if (this.connection !== null || this.closed) {
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** The owner saw `connection` fail: drop it and reconnect with backoff. */
  lost(connection: T, error: unknown): void {
    if (this.connection !== connection) {
      return; // an old connection reporting late
    }
    this.connection = null;
    this.options.link.down(error);
    void this.options.dispose(connection);
    this.retryLater(error);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer !== null) {
      this.timers.clearTimeout(this.timer);
      this.timer = null;
    }
    await this.connecting;
    const connection = this.connection;
    this.connection = null;
    if (connection !== null) {
      await this.options.dispose(connection);
    }
    this.releaseWaiters();
  }

  private async tryConnect(): Promise<void> {
    try {
      const connection = await this.options.connect();
      if (this.closed) {
        await this.options.dispose(connection);
        return;
      }
      this.connection = connection;
      this.attempt = 0;
      this.options.link.up();
      this.releaseWaiters();
    } catch (error) {
      this.options.link.down(error);
      if (!this.closed) {
        this.retryLater(error);
      }
    } finally {
      this.connecting = null;
    }
  }

  private retryLater(error: unknown): void {
    if (this.closed || this.timer !== null) {
      return;
    }
    const delay = backoffDelay(this.backoff, this.attempt, this.options.random);
    this.options.onAttemptFailed?.(error, this.attempt, delay);
    this.attempt += 1;
    this.timer = this.timers.setTimeout(() => {
      this.timer = null;
      this.start();
    }, delay);
  }

  private releaseWaiters(): void {
    const waiters = this.waiters;
    this.waiters = [];
    waiters.forEach((resolve) => resolve());
  }
}

export interface RetryOptions {
  /** Stop retrying (the error is thrown) once this says so: the work is no longer wanted. */
  giveUp?: () => boolean;
  /** Stop retrying after this long (default 5 minutes). */
  maxMs?: number;
  backoff?: BackoffPolicy;
  timers?: Timers;
  onRetry?: (error: unknown, attempt: number, delayMs: number) => void;
}

/**
 * Run `work`, and again with backoff while it fails with a connection error (a write that must
 * not be lost while PostgreSQL restarts: a build's result, a trigger event, a scheduler's side
 * effects). Other errors, `giveUp` and `maxMs` end the retries with the last error.
 */
export async function retryConnectionErrors<T>(work: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const started = Date.now();
  const maxMs = options.maxMs ?? 5 * 60_000;
  const timers = options.timers ?? REAL_TIMERS;
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      if (!isConnectionError(error) || options.giveUp?.() === true || Date.now() - started >= maxMs) {
        throw error;
      }
      const delay = backoffDelay(options.backoff ?? DEFAULT_BACKOFF, attempt);
      options.onRetry?.(error, attempt, delay);
      await new Promise<void>((resolve) => timers.setTimeout(resolve, delay));
    }
  }
}
