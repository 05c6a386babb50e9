/**
 * `/health/live` (the process answers) and `/health/ready` (docs/operations.md#health): ready
 * while the migrations are applied, the process is not shutting down and every database link
 * it needs is up (the store answers; the event bus's connections are open). The answer names
 * each link and, in a process running schedulers, which tenants it leads.
 */
import type Koa from 'koa';
import { toolchainWarnings, type ToolchainState } from '../executor/ansible/toolchain';
import type { Database } from '../store/database';
import { LinkTracker, type LinkState } from '../store/links';

export interface Readiness {
  migrated: boolean;
  shuttingDown: boolean;
}

export interface HealthSources {
  database: Database;
  readiness: Readiness;
  /** The event bus's links (and any other link the process keeps open). */
  links: () => LinkState[];
  /** The tenants whose schedulers run here, leading or standing by. */
  leadership?: () => Array<{ tenant: string; leading: boolean; epoch: number | null }>;
  /** How long the store may take to answer `select 1` (default 2 s). */
  probeTimeoutMs?: number;
  /** What this process's executor can run playbooks with (processes running the executor role). */
  executorTools?: () => ToolchainState;
}

/** The JSON of `/health/ready` (docs/operations.md#health). */
export interface ReadyAnswer {
  status: 'ready' | 'unavailable';
  problems?: string[];
  links: Record<string, { up: boolean; since: string; error?: string }>;
  leadership?: Record<string, { leading: boolean; epoch: number | null }>;
  /** Problems that leave the process ready but some builds unable to run (a missing `ansible-playbook`, no sandbox). */
  warnings?: string[];
  executor?: ToolchainState;
}

/** The store's link: one `select 1` at a time, answered within the timeout or counted down. */
class DatabaseProbe {
  readonly link = new LinkTracker('database', true);
  private running: Promise<void> | null = null;

  constructor(
    private readonly database: Database,
    private readonly timeoutMs: number,
  ) {}

  check(): Promise<void> {
    this.running ??= this.probe().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async probe(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${this.timeoutMs} ms`)), this.timeoutMs);
    });
    try {
      await Promise.race([this.database.knex.raw('select 1'), timeout]);
      this.link.up();
    } catch (err) {
      this.link.down(err);
    } finally {
      clearTimeout(timer);
    }
  }
}

export function healthRoutes(sources: HealthSources): Koa.Middleware {
  const probe = new DatabaseProbe(sources.database, sources.probeTimeoutMs ?? 2000);
  return async (ctx, next) => {
    // `/health/ready/` is `/health/ready` (not a page of the dashboard).
    const path = ctx.path.replace(/(?<=.)\/+$/, '');
    if (path === '/health/live') {
      ctx.body = { status: 'ok' };
      return;
    }
    if (path !== '/health/ready') {
      return next();
    }
    const { readiness } = sources;
    const problems: string[] = [];
    if (readiness.shuttingDown) {
      problems.push('shutting down');
    }
    if (!readiness.migrated) {
      problems.push('migrations not applied yet');
    }
    await probe.check();
    const links = [probe.link.state, ...sources.links()];
    for (const link of links) {
      if (!link.up) {
        problems.push(
          link.name === 'database'
            ? `database unavailable: ${link.error ?? 'unknown error'}`
            : `${link.name} down since ${link.since.toISOString()}: ${link.error ?? 'unknown error'}`,
        );
      }
    }
    const answer: ReadyAnswer = {
      status: problems.length === 0 ? 'ready' : 'unavailable',
      ...(problems.length === 0 ? {} : { problems }),
      links: Object.fromEntries(
        links.map((link) => [
          link.name,
          {
            up: link.up,
            since: link.since.toISOString(),
            ...(link.up ? {} : { error: link.error ?? 'unknown error' }),
          },
        ]),
      ),
    };
    const leadership = sources.leadership?.();
    if (leadership && leadership.length > 0) {
      answer.leadership = Object.fromEntries(
        leadership.map((state) => [state.tenant, { leading: state.leading, epoch: state.epoch }]),
      );
    }
    const tools = sources.executorTools?.();
    if (tools) {
      answer.executor = tools;
      const warnings = toolchainWarnings(tools);
      if (warnings.length > 0) {
        answer.warnings = warnings;
      }
    }
    ctx.status = problems.length === 0 ? 200 : 503;
    ctx.body = answer;
  };
}
