/**
 * A deployment for fault tests that run `sluice serve` as a child process: git repositories made
 * from a seed (a config project with a `gate` pipeline entered on `patchset-created`, merging on
 * success, and project `org/app` whose job `slow` waits for a release file), a tenant file, a
 * service configuration, and the private PostgreSQL database the processes share (DATABASE_URL
 * must be set: the embedded store serves one process; `describeMultiProcess` skips without it). The job leaves
 * marks: `started-<change>-<attempt>` (and a line `<change> <attempt>` in `starts`), its step's pid in `pid-<change>-<attempt>`, and a line
 * `<change> <attempt>` in `runs` when it finishes.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { git } from '../../src/sources/git-cli';
import { seedRepositories } from '../../src/drivers/git/seed';
import type { Database } from '../../src/store/database';
import { createTestDatabase, type TestDatabase } from './database';
import { spawnServe } from './serve-process';
import { describeExit, processExit, stoppable, type StoppableProcess } from './process-exit';
import { describeIf, MULTI_PROCESS } from './preconditions';
import { killStep } from './step-processes';

const SLOW_SCRIPT = `#!/bin/sh
marks="$SLUICE_VAR_marks"
echo $$ > "$marks/pid-$SLUICE_CHANGE-$SLUICE_ATTEMPT"
touch "$marks/started-$SLUICE_CHANGE-$SLUICE_ATTEMPT"
echo "$SLUICE_CHANGE $SLUICE_ATTEMPT" >> "$marks/starts"
while [ ! -f "$marks/release" ]; do sleep 0.1; done
echo "$SLUICE_CHANGE $SLUICE_ATTEMPT" >> "$marks/runs"
`;

export interface ServeProcess extends StoppableProcess {
  /** `http://127.0.0.1:<port>` */
  base: string;
}

export interface RecoveryDeployment {
  dir: string;
  marks: string;
  configFile: string;
  /** Bare repositories (the git connection's baseurl). */
  baseDir: string;
  /** A connection to the shared database, for the test to read. */
  store: Database;
  /** Start `sluice serve` and wait for its address. */
  serve(): Promise<ServeProcess>;
  /** Push patchset 1 of change `number` of org/app (a new file on master). */
  pushChange(number: number): Promise<void>;
  /** Move branch `branch` of org/app to a new commit (no pipeline runs for it). */
  pushBranch(branch: string): Promise<void>;
  release(): void;
  /** Kill the step processes left running by a killed executor (they have their own process groups). */
  killOrphanSteps(): void;
  mark(name: string): boolean;
  runs(): string[];
  close(): Promise<void>;
}

/** The repositories, tenant file and service configuration of the deployment (no database). */
export interface RecoveryFiles {
  dir: string;
  marks: string;
  configFile: string;
  baseDir: string;
}

export interface RecoveryOptions {
  pollInterval?: number;
  /** Attempts of every job (default 3). */
  attempts?: number;
  /** Seconds (default 5). */
  shutdownTimeout?: number;
  /** Projects `org/extra-<n>` (a README each, no jobs) listed before org/app in the tenant. */
  extraProjects?: number;
}

export async function recoveryFiles(options: RecoveryOptions = {}): Promise<RecoveryFiles> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sluice-recovery-'));
  const marks = path.join(dir, 'marks');
  mkdirSync(marks);
  const seed = path.join(dir, 'seed');
  const baseDir = path.join(dir, 'repos');
  mkdirSync(path.join(seed, 'sluice-config'), { recursive: true });
  mkdirSync(path.join(seed, 'org', 'app', 'scripts'), { recursive: true });
  writeFileSync(
    path.join(seed, 'sluice-config', 'zuul.yaml'),
    `- pipeline:
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

- job:
    name: base
    parent: null
    timeout: 600
    attempts: ${options.attempts ?? 3}
`,
  );
  writeFileSync(
    path.join(seed, 'org', 'app', '.zuul.yaml'),
    `- job:
    name: slow
    run: scripts/slow.sh
    vars:
      marks: ${marks}

- project:
    gate:
      jobs:
        - slow
`,
  );
  writeFileSync(path.join(seed, 'org', 'app', 'scripts', 'slow.sh'), SLOW_SCRIPT, { mode: 0o755 });
  const extras = Array.from({ length: options.extraProjects ?? 0 }, (_, index) => `org/extra-${index + 1}`);
  for (const extra of extras) {
    mkdirSync(path.join(seed, extra), { recursive: true });
    writeFileSync(path.join(seed, extra, 'README'), `${extra}\n`);
  }
  await seedRepositories(seed, baseDir);
  writeFileSync(
    path.join(dir, 'main.yaml'),
    `- tenant:
    name: example
    source:
      local:
        config-projects:
          - sluice-config
        untrusted-projects:
${[...extras, 'org/app'].map((project) => `          - ${project}`).join('\n')}
`,
  );
  const configFile = path.join(dir, 'sluice.yaml');
  writeFileSync(
    configFile,
    `listen: {host: 127.0.0.1, port: 0}
dataDir: data
tenantConfig: main.yaml
shutdownTimeout: ${options.shutdownTimeout ?? 5}
connections:
  local:
    driver: git
    baseurl: repos
    pollInterval: ${options.pollInterval ?? 0.3}
components:
  heartbeatInterval: 1
  expiry: 600
`,
  );
  return { dir, marks, configFile, baseDir };
}

let commits = 0;

/** Commit one new file (and `extra` files) on top of org/app's master and push it to `ref`. */
async function commitOnMaster(
  files: Pick<RecoveryFiles, 'dir' | 'baseDir'>,
  ref: string,
  message: string,
  extra: Record<string, string> = {},
): Promise<void> {
  const work = path.join(files.dir, `work-${commits++}`);
  await git(files.dir, ['clone', '--quiet', path.join(files.baseDir, 'org', 'app.git'), work]);
  writeFileSync(path.join(work, `commit-${commits}.txt`), `${message}\n`);
  for (const [name, content] of Object.entries(extra)) {
    writeFileSync(path.join(work, name), content);
  }
  await git(work, ['add', '--all']);
  await git(work, ['-c', 'user.name=Dev', '-c', 'user.email=dev@example.com', 'commit', '--quiet', '-m', message]);
  await git(work, ['push', '--quiet', 'origin', `HEAD:${ref}`]);
  rmSync(work, { recursive: true, force: true });
}

/** Push patchset 1 of change `number` of org/app (commit subject `Change <number>`), with `extra` files. */
export function pushChange(
  files: Pick<RecoveryFiles, 'dir' | 'baseDir'>,
  number: number,
  extra: Record<string, string> = {},
): Promise<void> {
  return commitOnMaster(
    files,
    `refs/changes/${String(number % 100).padStart(2, '0')}/${number}/1`,
    `Change ${number}`,
    extra,
  );
}

export async function recoveryDeployment(options: { pollInterval?: number } = {}): Promise<RecoveryDeployment> {
  const { dir, marks, configFile, baseDir } = await recoveryFiles(options);
  // Several processes on one database: PostgreSQL (the embedded store serves one process).
  const database: TestDatabase = await createTestDatabase({ backend: 'postgres', migrate: false });
  const databaseUrl = database.url ?? '';
  const store: Database = database;
  const running = new Set<ChildProcess>();
  return {
    dir,
    marks,
    configFile,
    baseDir,
    store,
    serve: () => startServe(configFile, { databaseUrl, running }),
    pushChange: (number) => pushChange({ dir, baseDir }, number),
    pushBranch: (branch) => commitOnMaster({ dir, baseDir }, `refs/heads/${branch}`, `Move ${branch}`),
    release: () => writeFileSync(path.join(marks, 'release'), ''),
    killOrphanSteps: () => {
      for (const file of readdirSync(marks).filter((name) => name.startsWith('pid-'))) {
        killStep(marks, file);
      }
    },
    mark: (name) => existsSync(path.join(marks, name)),
    runs: () =>
      existsSync(path.join(marks, 'runs'))
        ? readFileSync(path.join(marks, 'runs'), 'utf8').trim().split('\n').filter(Boolean)
        : [],
    close: async () => {
      for (const child of running) {
        child.kill('SIGKILL');
      }
      await database.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** How to start one `sluice serve` child process. */
export interface ServeOptions {
  databaseUrl: string;
  /** Children still running, for the deployment's clean-up (the child is added and removed on exit). */
  running: Set<ChildProcess>;
  /** `--roles` (all roles when unset). */
  roles?: readonly string[];
  /** Called with the child as soon as it is spawned (before it is ready), to kill it while it starts. */
  onSpawn?: (child: ChildProcess) => void;
  /**
   * How long the child may take to print its address (ms, default 180 s): past it the child is
   * SIGKILLed and the start fails, so a start hanging on a loaded machine ends the test's run
   * instead of outliving it.
   */
  readyTimeoutMs?: number;
}

/** Start `sluice serve --config <configFile>` (in the file's directory) and wait for its address. */
export async function startServe(configFile: string, options: ServeOptions): Promise<ServeProcess> {
  const { databaseUrl, running, roles, onSpawn, readyTimeoutMs = 180_000 } = options;
  const child = spawnServe(configFile, {
    roles: roles?.join(','),
    cwd: path.dirname(configFile),
    env: { DATABASE_URL: databaseUrl },
  });
  running.add(child);
  onSpawn?.(child);
  let output = '';
  let timer: NodeJS.Timeout | undefined;
  const exited = processExit(child).then((exit) => {
    running.delete(child);
    return exit;
  });
  const base = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /GraphQL .*?(http:\/\/[^\s]+)\/graphql/.exec(output);
      if (match) {
        resolve(match[1]);
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    void exited.then((exit) => reject(new Error(`sluice exited early (${describeExit(exit)}): ${output}`)));
    timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`sluice did not print its address within ${readyTimeoutMs} ms: ${output}`));
    }, readyTimeoutMs);
  }).finally(() => clearTimeout(timer));
  return { ...stoppable({ child, exited, output: () => output }), base };
}

/** Poll `check` (every 100 ms) until it holds; fails with `what` after `timeoutMs`. */
export async function waitFor(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * `describe` for tests of several processes on one database: skipped (with the reason) without
 * DATABASE_URL. Undefined outside jest (bench/chaos.ts imports this module too).
 */
export const describeMultiProcess = (
  typeof describe === 'undefined' ? undefined : describeIf(MULTI_PROCESS)
) as ReturnType<typeof describeIf>;
