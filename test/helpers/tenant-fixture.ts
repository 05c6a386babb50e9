/**
 * Serves a configuration fixture (`<fixture>/main.yaml` + `<fixture>/repos`) to a real server:
 * the fixture's projects become real git repositories, and the returned service configuration
 * points the server's LayoutManager at them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ServiceConfig } from '../../src/config/service';
import { buildFixtureRepos } from './config-fixtures';

export interface TenantFixture {
  /** Merge into the test server's configuration. */
  config: Pick<ServiceConfig, 'tenantConfig' | 'dataDir' | 'connections'>;
  /** Directory holding the bare repositories (`<project>.git`), for tests that push changes. */
  reposDir: string;
  cleanup(): void;
}

/** Build the fixture's repositories; the connection is `gerrit` (host `review.example.com`) plus a `timer`. */
export async function tenantFixture(fixtureDir: string): Promise<TenantFixture> {
  const repos = await buildFixtureRepos(fixtureDir);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sluice-tenant-fixture-'));
  return {
    config: {
      tenantConfig: path.join(fixtureDir, 'main.yaml'),
      dataDir,
      connections: {
        gerrit: { driver: 'git', baseurl: repos.baseDir, pollInterval: 3600, canonicalHostname: 'review.example.com' },
        timer: { driver: 'timer' },
      },
    },
    reposDir: repos.baseDir,
    cleanup: () => {
      repos.cleanup();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
