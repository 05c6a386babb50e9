import type { AddressInfo } from 'node:net';
import { buildApp } from '../../src/server/app';
import { defaultServiceConfig } from '../../src/config/service';
import { silentLogger } from '../../src/server/logger';
import { PostgresBus } from '../../subscriptions/bus/pg-bus';
import { createTestDatabase } from '../helpers/database';
import { ManualTimers, terminateSessions } from '../helpers/pg-faults';
import { itIf, POSTGRES } from '../helpers/preconditions';

describe('health endpoints', () => {
  it('reports not ready before migrations and when the database is gone; live all along', async () => {
    const database = await createTestDatabase({ migrate: false });
    const app = buildApp({ config: defaultServiceConfig(process.cwd()), database, logger: silentLogger() });
    await new Promise<void>((resolve) => app.httpServer.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(app.httpServer.address() as AddressInfo).port}`;
    try {
      const notMigrated = await fetch(`${base}/health/ready`);
      expect(notMigrated.status).toBe(503);
      expect(await notMigrated.json()).toEqual({
        status: 'unavailable',
        problems: ['migrations not applied yet'],
        links: { database: { up: true, since: expect.any(String) } },
      });
      const live = await fetch(`${base}/health/live`);
      expect(live.status).toBe(200);
      // Idle connections outlive clients' own keep-alive (src/server/app.ts says why).
      expect(live.headers.get('keep-alive')).toBe('timeout=65');
      // With a trailing slash: the same answers (not the dashboard's page, which is always 200).
      const slashed = await fetch(`${base}/health/ready/`);
      expect([slashed.status, slashed.headers.get('content-type'), await slashed.json()]).toEqual([
        503,
        'application/json; charset=utf-8',
        expect.objectContaining({ status: 'unavailable', problems: ['migrations not applied yet'] }),
      ]);
      expect(await (await fetch(`${base}/health/live/`)).json()).toEqual({ status: 'ok' });
      await database.close();
      const noDatabase = await fetch(`${base}/health/ready`);
      expect(noDatabase.status).toBe(503);
      const body = (await noDatabase.json()) as { problems: string[]; links: Record<string, unknown> };
      expect(body.problems).toContain('migrations not applied yet');
      expect(body.problems.some((p) => p.startsWith('database unavailable'))).toBe(true);
      expect(body.links.database).toEqual({ up: false, since: expect.any(String), error: expect.any(String) });
      expect((await fetch(`${base}/health/live`)).status).toBe(200);
    } finally {
      await new Promise<void>((resolve) => app.httpServer.close(() => resolve()));
      await database.destroy();
    }
  });

  const pgOnly = itIf(POSTGRES);
  pgOnly('is not ready while the LISTEN connection is down and names it; ready once it is back', async () => {
    const database = await createTestDatabase();
    const timers = new ManualTimers();
    const bus = new PostgresBus(database.url ?? '', { timers });
    const app = buildApp({ config: defaultServiceConfig(process.cwd()), database, bus, logger: silentLogger() });
    await app.start(0, '127.0.0.1');
    try {
      const ready = await fetch(`${app.url()}/health/ready`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({
        status: 'ready',
        links: {
          database: { up: true, since: expect.any(String) },
          'bus.listen': { up: true, since: expect.any(String) },
          'bus.publish': { up: true, since: expect.any(String) },
        },
      });

      const down = new Promise<void>((resolve) => bus.listenLink.onChange((state) => !state.up && resolve()));
      expect(await terminateSessions(database.knex, `query = 'LISTEN sluice_bus'`)).toBe(1);
      await down;
      const notReady = await fetch(`${app.url()}/health/ready`);
      expect(notReady.status).toBe(503);
      const body = (await notReady.json()) as {
        problems: string[];
        links: Record<string, { up: boolean; error?: string }>;
      };
      expect(body.problems).toEqual([expect.stringMatching(/^bus\.listen down since \S+: .*terminat/)]);
      expect(body.links['bus.listen']).toMatchObject({ up: false, error: expect.stringMatching(/terminat/) });

      const up = new Promise<void>((resolve) => bus.listenLink.onChange((state) => state.up && resolve()));
      await timers.waitForTimer();
      timers.fireAll();
      await up;
      expect((await fetch(`${app.url()}/health/ready`)).status).toBe(200);
    } finally {
      await app.stop();
      await database.destroy();
    }
  });
});
