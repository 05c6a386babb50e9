/** `/health/live` (the process answers) and `/health/ready` (database answers, migrations done). */
import type Koa from 'koa';
import type { Database } from '../store/database';

export interface Readiness {
  migrated: boolean;
  shuttingDown: boolean;
}

export function healthRoutes(database: Database, readiness: Readiness): Koa.Middleware {
  return async (ctx, next) => {
    if (ctx.path === '/health/live') {
      ctx.body = { status: 'ok' };
      return;
    }
    if (ctx.path !== '/health/ready') {
      return next();
    }
    const problems: string[] = [];
    if (readiness.shuttingDown) {
      problems.push('shutting down');
    }
    if (!readiness.migrated) {
      problems.push('migrations not applied yet');
    }
    try {
      await database.knex.raw('select 1');
    } catch (err) {
      problems.push(`database unavailable: ${(err as Error).message}`);
    }
    ctx.status = problems.length === 0 ? 200 : 503;
    ctx.body = problems.length === 0 ? { status: 'ready' } : { status: 'unavailable', problems };
  };
}
