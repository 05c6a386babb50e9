/**
 * The executor's own overhead per playbook start (docs/executor.md#overhead), without Ansible's:
 * builds run through the real runner (`runBuild`) with a stand-in `ansible-playbook` that exits
 * at once, so what is measured is Sluice's part — writing the build's Ansible files and copying
 * its projects (once per build), then per playbook its command (roles path, secrets file,
 * variables), the process start, the bubblewrap sandbox for untrusted playbooks, reading the
 * callback's output and recording the result — and the stand-in's own start is measured apart
 * and taken off.
 *
 *   npx tsx bench/playbook-start.ts [playbooks per build] [builds] [project files]
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AnsibleToolchain } from '../src/executor/ansible/toolchain';
import { BuildLog } from '../src/executor/build-log';
import { NO_SECRETS } from '../src/executor/build-secrets';
import { JobOutputRecorder } from '../src/executor/job-output-json';
import type { WorkspaceProject } from '../src/executor/merger';
import { buildInventory } from '../src/executor/node-inventory';
import { runBuild } from '../src/executor/runner';
import { allowedHostEnvironment } from '../src/executor/step-environment';
import { runStepProcess } from '../src/executor/step-process';
import { buildParams } from '../test/helpers/build-params';

const PLAYBOOKS = Number(process.argv[2] ?? 10);
const BUILDS = Number(process.argv[3] ?? 7);
const PROJECT_FILES = Number(process.argv[4] ?? 200);

const root = mkdtempSync(path.join(os.tmpdir(), 'sluice-bench-playbooks-'));

/** An `ansible-playbook` that answers the probe and exits at once. */
function standIn(): string {
  const file = path.join(root, 'ansible-playbook');
  writeFileSync(file, '#!/bin/sh\n[ "$1" = --version ] && echo "ansible-playbook [core 2.14.0]"\nexit 0\n');
  chmodSync(file, 0o755);
  return file;
}

/** A checkout of org/app: the playbooks and `files` other files of 10 kB. */
function checkout(workspace: string): WorkspaceProject {
  const dir = path.join(workspace, 'src', 'git.example.com', 'org', 'app');
  mkdirSync(path.join(dir, 'lib'), { recursive: true });
  for (let i = 0; i < PLAYBOOKS; i += 1) {
    writeFileSync(path.join(dir, `play-${i}.yaml`), '- hosts: all\n  tasks: []\n');
  }
  for (let i = 0; i < PROJECT_FILES; i += 1) {
    writeFileSync(path.join(dir, 'lib', `file-${i}.txt`), 'x'.repeat(10_000));
  }
  return {
    connection: 'local',
    project: 'org/app',
    path: dir,
    relativePath: 'git.example.com/org/app',
    checkout: 'master',
    head: 'x',
    speculativeBranches: {},
  };
}

async function oneBuild(toolchain: AnsibleToolchain, playbooks: number, trusted: boolean, n: number): Promise<number> {
  const workspace = path.join(root, `build-${n}`);
  const project = checkout(workspace);
  const logDir = path.join(root, `logs-${n}`);
  const log = new BuildLog(path.join(logDir, 'job-output.txt'));
  const params = buildParams({
    job: {
      run: Array.from({ length: playbooks }, (_, i) => ({
        connection: 'local',
        project: 'org/app',
        path: `play-${i}.yaml`,
        trusted,
      })),
    },
    params: { nodeset: { name: '', nodes: [{ name: 'worker', aliases: [], label: 'local' }], groups: [] } },
  });
  const started = process.hrtime.bigint();
  const outcome = await runBuild({
    params,
    workspaceRoot: workspace,
    projects: [project],
    log,
    logDir,
    logUrl: null,
    hostEnv: allowedHostEnvironment({ PATH: process.env.PATH }),
    secrets: NO_SECRETS,
    ansible: {
      toolchain,
      privateDir: path.join(root, '.ansible', String(n)),
      inventory: buildInventory({ params, workspaceRoot: workspace, sshKeyFor: () => undefined }),
      sshKeyFor: () => undefined,
    },
    jobOutput: new JobOutputRecorder({ logDir, jobName: 'bench', host: 'worker', branch: 'master' }),
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  log.finish();
  rmSync(workspace, { recursive: true, force: true });
  if (outcome.result !== 'SUCCESS') {
    throw new Error(`bench build ended ${outcome.result}: ${outcome.errorDetail}`);
  }
  return ms;
}

/** The stand-in started directly, as a step process (what Ansible's own start would replace). */
async function standInStart(command: string): Promise<number> {
  const started = process.hrtime.bigint();
  await runStepProcess({
    command,
    args: [],
    cwd: root,
    env: { PATH: '/usr/bin:/bin' },
    timeoutMs: null,
    onLine: () => undefined,
  });
  return Number(process.hrtime.bigint() - started) / 1e6;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main(): Promise<void> {
  const command = standIn();
  const toolchain = new AnsibleToolchain({ ansiblePlaybook: command, pathEnv: process.env.PATH });
  const state = await toolchain.probe();
  const spawn: number[] = [];
  for (let i = 0; i < 30; i += 1) {
    spawn.push(await standInStart(command));
  }
  const spawnMs = median(spawn);
  console.log(
    `load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}, ${os.cpus().length} cores`,
  );
  console.log(`stand-in start (spawn + exit, taken off): median ${spawnMs.toFixed(1)} ms`);
  console.log(
    `project copied per build: ${PROJECT_FILES} files of 10 kB; ${PLAYBOOKS} playbooks per build, ${BUILDS} builds`,
  );
  let n = 0;
  // The first builds load and compile the runner's code: not counted.
  for (const trusted of [true, false]) {
    await oneBuild(toolchain, PLAYBOOKS, trusted || !state.sandbox.available, (n += 1));
  }
  for (const trusted of [true, false]) {
    if (!trusted && !state.sandbox.available) {
      console.log(`untrusted: skipped (${state.sandbox.error ?? 'no sandbox'})`);
      continue;
    }
    const one: number[] = [];
    const many: number[] = [];
    for (let i = 0; i < BUILDS; i += 1) {
      one.push(await oneBuild(toolchain, 1, trusted, (n += 1)));
      many.push(await oneBuild(toolchain, PLAYBOOKS, trusted, (n += 1)));
    }
    const perPlaybook = (median(many) - median(one)) / (PLAYBOOKS - 1);
    const setup = median(one) - perPlaybook;
    console.log(
      `${trusted ? 'trusted  ' : 'untrusted'}: per playbook ${(perPlaybook - spawnMs).toFixed(1)} ms of Sluice's ` +
        `(${perPlaybook.toFixed(1)} ms with the stand-in's start), per build ${setup.toFixed(1)} ms ` +
        `(files, project copy, first run), medians of ${BUILDS}`,
    );
  }
}

main()
  .catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(() => rmSync(root, { recursive: true, force: true }));
