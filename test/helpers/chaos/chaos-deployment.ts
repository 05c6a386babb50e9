/**
 * The deployment a chaos run works on (docs/operations.md#chaos-runs): repositories made from a
 * seed (a dependent `gate` pipeline entered on `patchset-created`, merging on success; project
 * `org/app` whose job `work` holds a semaphore, sleeps briefly and fails when its tree holds a
 * `fail-<n>.txt`, which each failing change adds), a tenant file, one configuration file and data directory per process
 * (short heartbeats, component expiry and scheduler lease, so that lost work and lost leads are
 * taken over within seconds), and a PostgreSQL database of its own that every process shares.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { seedRepositories } from '../../../src/drivers/git/seed';
import { createTestDatabase, type TestDatabase } from '../database';
import { pushChange, startServe, type ServeProcess } from '../recovery-deployment';

/**
 * The job decides by content, as a real test suite does: it fails when the tree it runs on holds
 * any `fail-<n>.txt`, the failing change's own or one a wrongly kept change ahead brought in
 * (docs/gating.md#resets). Marks: `runs` gets `<change> <attempt> <exit> <fail files>` for each
 * finished run.
 */
const WORK_SCRIPT = `#!/bin/sh
sleep "$SLUICE_VAR_seconds"
failing=$(ls fail-*.txt 2>/dev/null | tr '\\n' ' ')
code=0
if [ -n "$failing" ]; then
  echo "FAILING: $failing"
  code=1
fi
echo "$SLUICE_CHANGE $SLUICE_ATTEMPT $code $failing" >> "$SLUICE_VAR_marks/runs"
exit $code
`;

export interface ChaosDeploymentOptions {
  /** Number of `sluice serve` processes. */
  processes: number;
  /** Change numbers that add a `fail-<n>.txt` (their job fails, and any job that sees them). */
  failing: readonly number[];
  /** How long the job sleeps (seconds). */
  jobSeconds: number;
  /** `org/app`'s merge mode. */
  mergeMode: string;
}

export interface ChaosDeployment {
  dir: string;
  baseDir: string;
  /** The bare repository of org/app. */
  appRepo: string;
  database: TestDatabase;
  /**
   * Start process `index` (its own configuration and data directory); `roles` as `--roles`,
   * `onSpawn` gets the child before it is ready.
   */
  serve(
    index: number,
    options?: { roles?: readonly string[]; onSpawn?: (child: ChildProcess) => void },
  ): Promise<ServeProcess>;
  pushChange(number: number): Promise<void>;
  close(): Promise<void>;
}

function zuulConfig(): string {
  return `- pipeline:
    name: gate
    manager: dependent
    trigger:
      local:
        - event: patchset-created
    success:
      local:
        submit: true
    failure:
      local: {}

- semaphore:
    name: chaos-slots
    max: 2

- job:
    name: base
    parent: null
    timeout: 600
    attempts: 30
`;
}

function appConfig(marks: string, options: ChaosDeploymentOptions): string {
  return `- job:
    name: work
    run: scripts/work.sh
    semaphores: [chaos-slots]
    vars:
      marks: ${marks}
      seconds: "${options.jobSeconds}"

- project:
    merge-mode: ${options.mergeMode}
    gate:
      jobs:
        - work
`;
}

function serviceConfig(index: number, dir: string): string {
  return `listen: {host: 127.0.0.1, port: 0}
database: {applicationName: chaos-${index}}
dataDir: ${path.join(dir, `data-${index}`)}
tenantConfig: ${path.join(dir, 'main.yaml')}
shutdownTimeout: 5
connections:
  local:
    driver: git
    baseurl: ${path.join(dir, 'repos')}
    pollInterval: 0.5
components:
  heartbeatInterval: 1
  expiry: 4
scheduler:
  leaseTimeout: 3
`;
}

export async function chaosDeployment(options: ChaosDeploymentOptions): Promise<ChaosDeployment> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sluice-chaos-'));
  const marks = path.join(dir, 'marks');
  const seed = path.join(dir, 'seed');
  const baseDir = path.join(dir, 'repos');
  mkdirSync(marks);
  mkdirSync(path.join(seed, 'sluice-config'), { recursive: true });
  mkdirSync(path.join(seed, 'org', 'app', 'scripts'), { recursive: true });
  writeFileSync(path.join(seed, 'sluice-config', 'zuul.yaml'), zuulConfig());
  writeFileSync(path.join(seed, 'org', 'app', '.zuul.yaml'), appConfig(marks, options));
  writeFileSync(path.join(seed, 'org', 'app', 'scripts', 'work.sh'), WORK_SCRIPT, { mode: 0o755 });
  await seedRepositories(seed, baseDir);
  writeFileSync(
    path.join(dir, 'main.yaml'),
    `- tenant:
    name: example
    source:
      local:
        config-projects: [sluice-config]
        untrusted-projects: [org/app]
`,
  );
  const configFiles: string[] = [];
  for (let index = 0; index < options.processes; index++) {
    const file = path.join(dir, `sluice-${index}.yaml`);
    writeFileSync(file, serviceConfig(index, dir));
    configFiles.push(file);
  }
  const database = await createTestDatabase({ backend: 'postgres', migrate: false });
  const running = new Set<ChildProcess>();
  return {
    dir,
    baseDir,
    appRepo: path.join(baseDir, 'org', 'app.git'),
    database,
    serve: (index, serveOptions = {}) =>
      startServe(configFiles[index] ?? '', { databaseUrl: database.url ?? '', running, ...serveOptions }),
    pushChange: (number) =>
      pushChange(
        { dir, baseDir },
        number,
        options.failing.includes(number) ? { [`fail-${number}.txt`]: `change ${number} breaks the build\n` } : {},
      ),
    close: async () => {
      for (const child of running) {
        child.kill('SIGKILL');
      }
      await database.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
