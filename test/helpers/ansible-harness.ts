/**
 * A harness for running playbooks through runBuild on this machine (connection local):
 * a workspace with org/app and org/roles, a build log and job-output.json, as the executor
 * prepares them (docs/executor.md#ansible-on-the-executor).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { TimerClock } from '../../src/engine/ports/clock';
import type { BuildJob, BuildRequestParams, BuildStep } from '../../src/model/build-request';
import { AnsibleToolchain } from '../../src/executor/ansible/toolchain';
import { BuildLog } from '../../src/executor/build-log';
import { JobOutputRecorder } from '../../src/executor/job-output-json';
import type { WorkspaceProject } from '../../src/executor/merger';
import { buildInventory } from '../../src/executor/node-inventory';
import { runBuild, type RunOutcome } from '../../src/executor/runner';
import { allowedHostEnvironment } from '../../src/executor/step-environment';
import { createRedactor } from '../../src/secrets/redact';
import { buildParams } from './build-params';
import { expectValid, jobOutputSchema, type JobOutput } from './log-schemas';

export const LOG_URL = 'https://logs.example.com/example/ab/ab12cd34ef5600000000000000000001/';

/** A playbook step of org/app (untrusted unless said). */
export function playbook(file: string, extra: Partial<BuildStep> = {}): BuildStep {
  return { connection: 'local', project: 'org/app', path: file, ...extra };
}

/** A port nothing listens on. */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export const localPlay = (tasks: string): string => `- hosts: all\n  gather_facts: false\n  tasks:\n${tasks}`;

export interface Setup {
  workspace: string;
  logDir: string;
  logFile: string;
  log: BuildLog;
  run(
    job: Partial<BuildJob>,
    extra?: {
      params?: Partial<BuildRequestParams>;
      signal?: AbortSignal;
      secrets?: unknown[];
      toolchain?: AnsibleToolchain;
      /** The executor's key for SSH nodes. */
      sshKey?: string;
      branchTree?: (connection: string, project: string, branch: string, target: string) => Promise<string>;
      /** The clock of the job's timeouts (a FakeTimerClock: the test moves it on). */
      timers?: TimerClock;
    },
  ): Promise<RunOutcome>;
  /** Resolves once the log has a line ending with `end`; rejects if `running` ends first. */
  untilLogged(end: string, running: Promise<RunOutcome>): Promise<void>;
  jobOutput(): JobOutput;
}

/** Builds in a temporary root; `start` before use, `stop` after. */
export class AnsibleHarness {
  root = '';
  readonly toolchain = new AnsibleToolchain({ pathEnv: process.env.PATH });
  private counter = 0;

  async start(): Promise<void> {
    this.root = mkdtempSync(path.join(os.tmpdir(), 'sluice-ansible-'));
    await this.toolchain.probe();
  }

  stop(): void {
    rmSync(this.root, { recursive: true, force: true });
  }

  /** A workspace with org/app (and org/roles) holding the given files, one local node `worker`. */
  setup(files: Record<string, string>, roleFiles: Record<string, string> = {}): Setup {
    const workspace = path.join(this.root, `build-${this.counter++}`);
    const projects: WorkspaceProject[] = [];
    for (const [project, content] of [
      ['org/app', files],
      ['org/roles', roleFiles],
    ] as const) {
      const checkout = path.join(workspace, 'src', 'git.example.com', project);
      mkdirSync(checkout, { recursive: true });
      for (const [file, text] of Object.entries(content)) {
        mkdirSync(path.dirname(path.join(checkout, file)), { recursive: true });
        writeFileSync(path.join(checkout, file), text);
      }
      projects.push({
        connection: 'local',
        project,
        path: checkout,
        relativePath: `git.example.com/${project}`,
        checkout: 'master',
        head: 'x',
        speculativeBranches: {},
      });
    }
    const logDir = path.join(this.root, `logs-${this.counter}`);
    const logFile = path.join(logDir, 'job-output.txt');
    const log = new BuildLog(logFile);
    return {
      workspace,
      logDir,
      logFile,
      log,
      untilLogged: async (end, running) => {
        const seen = (async () => {
          for await (const batch of log.lines()) {
            if (batch.some((line) => line.text.endsWith(end))) {
              return;
            }
          }
          throw new Error(`the log ended without a line ending with "${end}"`);
        })();
        const ended = running.then((outcome) => {
          throw new Error(`the build ended (${outcome.result}) before a line ending with "${end}"`);
        });
        await Promise.race([seen, ended]);
      },
      jobOutput: () =>
        expectValid(jobOutputSchema, JSON.parse(readFileSync(path.join(logDir, 'job-output.json'), 'utf8')), 'json'),
      run: async (job, extra = {}) => {
        const params = buildParams({
          job,
          params: {
            nodeset: { name: '', nodes: [{ name: 'worker', aliases: [], label: 'local' }], groups: [] },
            zuul: {
              voting: true,
              jobtags: [],
              inheritancePath: [],
              childJobs: [],
              postReview: false,
              changeUrl: null,
              canonicalNames: { 'org/app': 'git.example.com/org/app' },
            },
            ...extra.params,
          },
        });
        const values = extra.secrets ?? [];
        const secrets = { values, redactor: createRedactor(values.flatMap((v) => Object.values(v as object))) };
        log.setRedactor(secrets.redactor);
        const outcome = await runBuild({
          params,
          workspaceRoot: workspace,
          projects,
          log,
          logDir,
          logUrl: LOG_URL,
          hostEnv: allowedHostEnvironment({ PATH: process.env.PATH }),
          signal: extra.signal,
          timers: extra.timers,
          killGraceMs: 500,
          secrets,
          ansible: {
            toolchain: extra.toolchain ?? this.toolchain,
            privateDir: path.join(this.root, '.ansible', `build-${this.counter}`),
            inventory: buildInventory({ params, workspaceRoot: workspace, sshKeyFor: () => extra.sshKey }),
            sshKeyFor: () => extra.sshKey,
            branchTree: extra.branchTree,
          },
          jobOutput: new JobOutputRecorder({
            logDir,
            jobName: 'unit',
            host: 'worker',
            branch: 'master',
            redactor: secrets.redactor,
          }),
        });
        return outcome;
      },
    };
  }
}
