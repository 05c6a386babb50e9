/**
 * The Ansible side of one build (docs/executor.md#ansible-on-the-executor): the files
 * `ansible-playbook` reads, in a folder of the executor's own that the job cannot write
 * (`<workRoot>/.ansible/<build uuid>/`): one `ansible.cfg` per trust context, the inventory,
 * the `zuul` and extra variables, the blocked variables of untrusted playbooks, per playbook its
 * secrets and its output, and copies of the projects whose playbooks and roles run (taken
 * from the workspace before the first playbook, so a playbook changing the workspace never
 * changes the code a later playbook runs). Each playbook becomes one `ansible-playbook` command,
 * wrapped in the bubblewrap sandbox when untrusted.
 */
import { chmodSync, cpSync, existsSync, mkdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { BuildNode, BuildRequestParams, BuildRole, BuildStep } from '../../model/build-request';
import { stepSecretsDocument, type DecryptedBuildSecrets } from '../build-secrets';
import { stepCanonicalPath } from '../oidc-tokens';
import { resolveInside, UnsafePathError } from '../log-paths';
import type { WorkspaceProject } from '../merger';
import type { NodeInventory } from '../node-inventory';
import { startBuildAgent, type BuildAgent } from '../ssh-agent';
import { mergeVariables } from '../step-environment';
import { zuulReturnFile, zuulVariables } from '../zuul-variables';
import { sandboxArgs } from './sandbox';
import type { AnsibleToolchain } from './toolchain';
import { unsafeYaml } from './unsafe-yaml';

export type Trust = 'trusted' | 'untrusted';

/** The phases' names in the playbooks' variables and job-output.json. */
export type PlaybookPhase = 'pre' | 'run' | 'post';

/** A playbook or role cannot run: the build ends ERROR (nothing runs). */
export class PlaybookSetupError extends Error {}

/** Variables untrusted playbooks cannot set: ssh could otherwise run local commands. */
const BLOCKED_VARIABLES = {
  ansible_ssh_executable: 'ssh',
  ansible_ssh_common_args: '-o PermitLocalCommand=no',
  ansible_sftp_extra_args: '-o PermitLocalCommand=no',
  ansible_scp_extra_args: '-o PermitLocalCommand=no',
  ansible_ssh_extra_args: '-o PermitLocalCommand=no',
};

/** Which playbook of the build, and what its variables say about the run so far. */
export interface PlaybookRun {
  step: BuildStep;
  phase: PlaybookPhase;
  /** Position of the playbook in its phase. */
  index: number;
  /** Post-run playbooks: whether the run phase succeeded (`zuul_success`) and the build will be retried. */
  success?: boolean;
  willRetry?: boolean;
  /** The tokens of the step's `oidc` secrets issued for this run, by alias. */
  tokens?: Record<string, string>;
}

/** The command of one playbook, and where its callback leaves the structured output and unreachable hosts. */
export interface PlaybookCommand {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  outputFile: string;
  unreachableFile: string;
  /** Removed when the playbook ends (its secrets). */
  secretsFile: string | null;
  trusted: boolean;
  /** `<canonical project>/<path>`, as job-output.json names the playbook. */
  name: string;
}

export interface AnsibleBuildInput {
  params: BuildRequestParams;
  workspaceRoot: string;
  projects: WorkspaceProject[];
  /** The executor's own folder for this build (`<workRoot>/.ansible/<uuid>`). */
  privateDir: string;
  logDir: string;
  logUrl: string | null;
  inventory: NodeInventory;
  secrets: DecryptedBuildSecrets;
  toolchain: AnsibleToolchain;
  sshKeyFor(node: BuildNode): string | undefined;
  /** The steps' environment (HOME, TMPDIR, PATH, SLUICE_*). */
  env: Record<string, string>;
  /** The build's playbook steps (their projects and roles are copied before the first runs). */
  steps: readonly BuildStep[];
  /**
   * Writes a project's branch as merged into a folder (src/executor/branch-tree.ts): trusted
   * playbooks and roles of a project the speculative state changes run from it. Absent: the
   * workspace's checkout.
   */
  branchTree?: (connection: string, project: string, branch: string, target: string) => Promise<string>;
}

export function isPlaybookPath(file: string): boolean {
  return /\.ya?ml$/i.test(file);
}

/** The executor's own folder of a build's Ansible files. */
export function ansiblePrivateDir(workRoot: string, buildUuid: string): string {
  return path.join(workRoot, '.ansible', buildUuid);
}

/**
 * Check a build's playbooks before anything runs: each names a file of its checkout, its roles
 * come from projects of the workspace (never Galaxy), Ansible is installed and the sandbox of
 * untrusted playbooks can start. Throws PlaybookSetupError with the reason.
 */
export function checkPlaybooks(
  steps: readonly BuildStep[],
  projects: readonly WorkspaceProject[],
  toolchain: AnsibleToolchain,
): void {
  const playbooks = steps.filter((step) => isPlaybookPath(step.path));
  if (playbooks.length === 0) {
    return;
  }
  const state = toolchain.current();
  if (!state.ansible.available) {
    throw new PlaybookSetupError(
      `The job runs playbooks but this executor cannot run Ansible: ${state.ansible.error ?? 'unknown'}`,
    );
  }
  for (const step of playbooks) {
    if (step.trusted !== true && toolchain.sandboxMode === 'bwrap' && !state.sandbox.available) {
      throw new PlaybookSetupError(
        `Untrusted playbook ${step.path} of ${step.project} needs the bubblewrap sandbox: ${state.sandbox.error ?? 'unknown'}`,
      );
    }
    for (const role of step.roles ?? []) {
      if (role.type === 'galaxy') {
        throw new PlaybookSetupError(`Galaxy roles are not supported: ${role.project} (playbook ${step.path})`);
      }
      if (!projects.some((p) => p.connection === role.connection && p.project === role.project)) {
        throw new PlaybookSetupError(`Role project ${role.project} of playbook ${step.path} is not in the workspace`);
      }
    }
  }
}

/** Folders of a bare role (a project that is itself one role). */
const ROLE_FOLDERS = ['tasks', 'handlers', 'meta', 'defaults', 'vars', 'files', 'templates', 'library'];

function isDirectory(dir: string): boolean {
  return existsSync(dir) && statSync(dir).isDirectory();
}

export class AnsibleBuild {
  private readonly copies = new Map<string, string>();
  private agent: BuildAgent | null = null;
  private roleLinks = 0;

  private constructor(private readonly input: AnsibleBuildInput) {}

  /** Write the build's Ansible files, copy its projects and start its SSH agent (when it has SSH nodes). */
  static async open(input: AnsibleBuildInput): Promise<AnsibleBuild> {
    const build = new AnsibleBuild(input);
    build.writeFiles();
    for (const step of input.steps) {
      const trust: Trust = step.trusted === true ? 'trusted' : 'untrusted';
      await build.copy(trust, step.connection, step.project, step.branch ?? null);
      for (const role of step.roles ?? []) {
        if (role.type === 'zuul') {
          await build.copy(trust, role.connection, role.project, null);
        }
      }
    }
    await build.startAgent();
    return build;
  }

  private get dir(): string {
    return this.input.privateDir;
  }

  private writeFiles(): void {
    const { params, inventory } = this.input;
    for (const sub of ['vars', 'playbooks', 'projects', 'roles']) {
      mkdirSync(path.join(this.dir, sub), { recursive: true, mode: 0o700 });
    }
    chmodSync(this.dir, 0o700);
    for (const trust of ['trusted', 'untrusted'] as const) {
      for (const sub of ['facts', 'cp', 'tmp']) {
        mkdirSync(path.join(this.dir, sub, trust), { recursive: true });
      }
      writeFileSync(path.join(this.dir, `ansible-${trust}.cfg`), this.config(trust));
    }
    mkdirSync(this.consoleDir, { recursive: true });
    const hosts = Object.fromEntries(
      Object.entries(inventory.all.hosts).map(([name, vars]) => {
        const hostVars: Record<string, unknown> = { ...vars };
        // Keys reach SSH nodes through the build's agent; unset connection details are left out.
        delete hostVars.ansible_ssh_private_key_file;
        for (const key of ['ansible_port', 'ansible_user']) {
          if (hostVars[key] === null) {
            delete hostVars[key];
          }
        }
        return [name, hostVars];
      }),
    );
    const all = {
      hosts,
      children: inventory.all.children,
      vars: mergeVariables(params.job.vars, params.parentData, {}),
    };
    writeFileSync(this.inventoryFile, `${JSON.stringify({ all }, null, 2)}\n`);
    writeFileSync(
      path.join(this.dir, 'vars', 'zuul.yaml'),
      `${unsafeYaml({ zuul: zuulVariables({ ...this.input, ansibleVersion: this.ansibleVersion() }) })}\n`,
    );
    writeFileSync(path.join(this.dir, 'vars', 'extra.json'), `${JSON.stringify(params.job.extraVars)}\n`);
    writeFileSync(path.join(this.dir, 'vars', 'blocked.json'), `${JSON.stringify(BLOCKED_VARIABLES)}\n`);
  }

  private ansibleVersion(): string | undefined {
    const match = /core ([0-9]+\.[0-9]+)/.exec(this.input.toolchain.current().ansible.version ?? '');
    return match ? match[1] : undefined;
  }

  private get inventoryFile(): string {
    return path.join(this.dir, 'inventory.json');
  }

  /** Where command tasks write their live output (followed by the callback). */
  get consoleDir(): string {
    return path.join(this.input.workspaceRoot, 'work', 'console');
  }

  private config(trust: Trust): string {
    const plugins = this.input.toolchain.plugins;
    const knownHosts = path.join(this.input.workspaceRoot, 'work', 'ssh', 'known_hosts');
    return [
      '[defaults]',
      `local_tmp = ${path.join(this.dir, 'tmp', trust)}`,
      'retry_files_enabled = False',
      'gathering = smart',
      'fact_caching = jsonfile',
      `fact_caching_connection = ${path.join(this.dir, 'facts', trust)}`,
      `library = ${path.join(plugins, 'library')}`,
      `callback_plugins = ${path.join(plugins, 'callback')}`,
      'stdout_callback = sluice_console',
      `action_plugins = ${path.join(plugins, 'action')}`,
      `connection_plugins = ${path.join(plugins, 'connection')}`,
      'interpreter_python = auto_silent',
      'nocows = True',
      'timeout = 30',
      'internal_poll_interval = 0.01',
      'display_args_to_stdout = False',
      'host_key_checking = True',
      '[ssh_connection]',
      'pipelining = True',
      `control_path_dir = ${path.join(this.dir, 'cp', trust)}`,
      `ssh_args = -o ControlMaster=auto -o ControlPersist=60s -o ServerAliveInterval=60 -o UserKnownHostsFile=${knownHosts} -o StrictHostKeyChecking=accept-new`,
      '',
    ].join('\n');
  }

  private async startAgent(): Promise<void> {
    const keys = new Set(
      (this.input.params.nodes ?? []).flatMap((node) =>
        node.connectionType === 'ssh' ? (this.input.sshKeyFor(node) ?? []) : [],
      ),
    );
    if (keys.size > 0) {
      this.agent = await startBuildAgent([...keys], { PATH: this.input.env.PATH ?? '/usr/bin:/bin' });
    }
  }

  async close(): Promise<void> {
    await this.agent?.stop();
    this.agent = null;
  }

  /**
   * Copy a project for one trust context (once per build): the workspace's checkout, except
   * that a trusted context gets the branch as merged of a project the build's changes touch
   * (`branch`: the playbook's own branch, else the changed branch).
   */
  private async copy(trust: Trust, connection: string, project: string, branch: string | null): Promise<void> {
    const key = `${trust}\u0000${connection}\u0000${project}`;
    if (this.copies.has(key)) {
      return;
    }
    const checkout = this.input.projects.find((p) => p.connection === connection && p.project === project);
    if (!checkout) {
      throw new PlaybookSetupError(`Project ${project} is not in the workspace`);
    }
    const target = path.join(this.dir, 'projects', trust, checkout.relativePath);
    const changed = this.input.params.mergerItems.findLast(
      (item) => item.connection === connection && item.project === project && item.branch !== null,
    );
    if (existsSync(target)) {
      // A paused build continued: its copies are the ones its first playbooks ran.
    } else if (trust === 'trusted' && changed !== undefined && this.input.branchTree !== undefined) {
      const source = branch ?? changed.branch ?? '';
      try {
        await this.input.branchTree(connection, project, source, target);
      } catch (err) {
        throw new PlaybookSetupError(
          `Branch ${source} of ${project} (trusted playbooks run it as merged) could not be read: ${err instanceof Error ? err.message : String(err)}`,
        );
      }
    } else {
      cpSync(checkout.path, target, {
        recursive: true,
        verbatimSymlinks: true,
        filter: (source) => source !== path.join(checkout.path, '.git'),
      });
    }
    this.copies.set(key, target);
  }

  /** The copy of a project for a trust context. */
  private copyOf(trust: Trust, connection: string, project: string): string {
    const copy = this.copies.get(`${trust}\u0000${connection}\u0000${project}`);
    if (copy === undefined) {
      throw new PlaybookSetupError(`Project ${project} is not in the workspace`);
    }
    return copy;
  }

  /** The roles path of a playbook: each role project's `roles/` folder, or a link to a bare role. */
  private rolesPath(trust: Trust, roles: readonly BuildRole[]): string[] {
    const entries: string[] = [];
    for (const role of roles) {
      if (role.type !== 'zuul') {
        throw new PlaybookSetupError(`Galaxy roles are not supported: ${role.project}`);
      }
      const root = this.copyOf(trust, role.connection, role.project);
      if (isDirectory(path.join(root, 'roles'))) {
        entries.push(path.join(root, 'roles'));
      } else if (ROLE_FOLDERS.some((folder) => isDirectory(path.join(root, folder)))) {
        this.roleLinks += 1;
        const linkDir = path.join(this.dir, 'roles', trust, String(this.roleLinks));
        mkdirSync(linkDir, { recursive: true });
        symlinkSync(root, path.join(linkDir, role.target));
        entries.push(linkDir);
      }
    }
    return entries;
  }

  /** The command running one playbook (its secrets file is written now). */
  playbookCommand(run: PlaybookRun, playbookNumber: number): PlaybookCommand {
    const { step } = run;
    const { params, toolchain } = this.input;
    const trust: Trust = step.trusted === true ? 'trusted' : 'untrusted';
    const root = this.copyOf(trust, step.connection, step.project);
    let playbook: string;
    try {
      playbook = resolveInside(root, step.path);
    } catch (err) {
      if (err instanceof UnsafePathError) {
        throw new PlaybookSetupError(
          `Playbook path ${step.path} of project ${step.project} leaves the project's checkout`,
        );
      }
      throw err;
    }
    const rolesPath = this.rolesPath(trust, step.roles ?? []);
    const own = path.join(this.dir, 'playbooks', String(playbookNumber));
    const out = path.join(own, 'out');
    rmSync(own, { recursive: true, force: true });
    mkdirSync(out, { recursive: true, mode: 0o700 });
    const name = stepCanonicalPath(params, step);
    const args = [
      '-i',
      this.inventoryFile,
      playbook,
      '-e',
      `zuul_execution_phase=${run.phase}`,
      '-e',
      `zuul_execution_phase_index=${run.index}`,
      '-e',
      `zuul_execution_trusted=${trust === 'trusted' ? 'True' : 'False'}`,
      '-e',
      `zuul_execution_canonical_name_and_path=${name}`,
      '-e',
      `zuul_execution_branch=${step.branch ?? params.item.branch ?? ''}`,
    ];
    if (run.success !== undefined) {
      args.push('-e', `zuul_success=${run.success ? 'True' : 'False'}`);
    }
    if (run.willRetry !== undefined) {
      args.push('-e', `zuul_will_retry=${run.willRetry ? 'True' : 'False'}`);
    }
    // Later files win: nothing a job sets overrides the blocked variables or `zuul`.
    args.push('-e', `@${path.join(this.dir, 'vars', 'extra.json')}`);
    let secretsFile: string | null = null;
    if ((step.secrets ?? []).length > 0) {
      secretsFile = path.join(own, 'secrets.yaml');
      const document = { ...stepSecretsDocument(step, this.input.secrets), ...run.tokens };
      writeFileSync(secretsFile, `${unsafeYaml(document)}\n`, { mode: 0o600 });
      args.push('-e', `@${secretsFile}`);
    }
    if (trust === 'untrusted') {
      args.push('-e', `@${path.join(this.dir, 'vars', 'blocked.json')}`);
    }
    args.push('-e', `@${path.join(this.dir, 'vars', 'zuul.yaml')}`);
    const { SLUICE_SECRETS_FILE: _secrets, ...baseEnv } = this.input.env;
    const env: Record<string, string> = {
      ...baseEnv,
      ANSIBLE_CONFIG: path.join(this.dir, `ansible-${trust}.cfg`),
      ANSIBLE_ROLES_PATH: rolesPath.join(':'),
      ANSIBLE_NOCOLOR: '1',
      // Our plugins load from the service's install tree: no bytecode written beside them.
      PYTHONDONTWRITEBYTECODE: '1',
      SLUICE_PLAYBOOK_OUTPUT: path.join(out, 'job-output.json'),
      SLUICE_UNREACHABLE_FILE: path.join(out, 'unreachable'),
      SLUICE_CONSOLE_DIR: this.consoleDir,
      SLUICE_ZUUL_RETURN_FILE: zuulReturnFile(this.input.workspaceRoot),
      ...(params.job.ansibleSplitStreams === true ? { SLUICE_SPLIT_STREAMS: '1' } : {}),
      ...(this.agent ? { SSH_AUTH_SOCK: this.agent.socket } : {}),
    };
    const base = {
      env,
      cwd: this.input.workspaceRoot,
      outputFile: env.SLUICE_PLAYBOOK_OUTPUT,
      unreachableFile: env.SLUICE_UNREACHABLE_FILE,
      secretsFile,
      trusted: trust === 'trusted',
      name,
    };
    if (trust === 'trusted' || toolchain.sandboxMode === 'none') {
      return { ...base, command: toolchain.ansiblePlaybook, args };
    }
    const readOnly = [
      toolchain.plugins,
      env.ANSIBLE_CONFIG,
      this.inventoryFile,
      path.join(this.dir, 'vars'),
      path.join(this.dir, 'projects', trust),
      path.join(this.dir, 'roles', trust),
      own,
      ...(toolchain.installRoot !== null ? [toolchain.installRoot] : []),
    ];
    const readWrite = [
      this.input.workspaceRoot,
      this.input.logDir,
      out,
      ...['facts', 'cp', 'tmp'].map((sub) => path.join(this.dir, sub, trust)),
      ...(this.agent ? [path.dirname(this.agent.socket)] : []),
      ...this.input.inventory.nodes.flatMap((node) =>
        node.directory !== null && node.directory !== this.input.workspaceRoot && existsSync(node.directory)
          ? [node.directory]
          : [],
      ),
    ];
    mkdirSync(path.join(this.dir, 'roles', trust), { recursive: true });
    return {
      ...base,
      command: toolchain.bwrap,
      args: sandboxArgs({ readOnly, readWrite, chdir: this.input.workspaceRoot }, [toolchain.ansiblePlaybook, ...args]),
    };
  }
}
