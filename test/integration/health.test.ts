import type { AddressInfo } from 'node:net';
import { buildApp } from '../../src/server/app';
import { defaultServiceConfig } from '../../src/config/service';
import { silentLogger } from '../../src/server/logger';
import { createTestDatabase } from '../helpers/database';

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
      expect((await fetch(`${base}/health/live`)).status).toBe(200);
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
});
