/**
 * What this executor host offers for running playbooks (docs/executor.md#ansible-on-the-executor):
 * `ansible-playbook` (Debian's `ansible-core`) and the bubblewrap sandbox untrusted playbooks run
 * in. Both are probed once, when the executor starts (and again when asked): the answer is shown
 * at start-up and in `/health/ready`, and builds whose jobs need what is missing end ERROR with
 * the reason (counted, so the health answer says how many did).
 */
import { spawn } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { sandboxProbeArgs } from './sandbox';

/** How untrusted playbooks are run: in the bubblewrap sandbox (required), or unrestricted. */
export type SandboxMode = 'bwrap' | 'none';

export interface ToolState {
  available: boolean;
  /** The tool's version line, when available. */
  version?: string;
  /** Why it is not available. */
  error?: string;
}

export interface ToolchainState {
  ansible: ToolState;
  sandbox: ToolState & { mode: SandboxMode };
  /** Builds that ended ERROR because something here was missing, and the last such job. */
  refusedBuilds: number;
  lastRefused?: { job: string; build: string; reason: string };
}

export interface ToolchainOptions {
  /** The `ansible-playbook` command (default: found on PATH). */
  ansiblePlaybook?: string;
  /** The `bwrap` command (default: found on PATH). */
  bwrap?: string;
  sandbox?: SandboxMode;
  /** PATH to find them on. */
  pathEnv?: string;
}

/**
 * What the executor says about the tools at start and in `/health/ready`: a line per missing
 * tool (empty when both are there, or the sandbox is switched off on purpose).
 */
export function toolchainWarnings(state: ToolchainState): string[] {
  const warnings: string[] = [];
  const refused =
    state.refusedBuilds > 0
      ? `; ${state.refusedBuilds} build(s) needing it ended ERROR, the last of job ${state.lastRefused?.job ?? '?'}`
      : '';
  if (!state.ansible.available) {
    warnings.push(
      `ansible-playbook is not available (${state.ansible.error ?? 'unknown'}): builds whose jobs run playbooks end ERROR${refused}`,
    );
  }
  if (state.sandbox.mode === 'bwrap' && !state.sandbox.available) {
    warnings.push(
      `the bubblewrap sandbox is not available (${state.sandbox.error ?? 'unknown'}): builds running untrusted playbooks end ERROR${state.ansible.available ? refused : ''}`,
    );
  }
  return warnings;
}

/** The Python plugins kept in this repository (the callback, the command module, zuul_return). */
export function pluginsDir(): string {
  const candidates = [
    path.join(__dirname, 'plugins'),
    // The compiled build (dist/src/executor/ansible) runs the plugins from the sources.
    path.resolve(__dirname, '..', '..', '..', '..', 'src', 'executor', 'ansible', 'plugins'),
  ];
  return candidates.find((dir) => existsSync(path.join(dir, 'callback'))) ?? candidates[0];
}

function run(
  command: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; out: string; error?: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => (out += chunk));
    child.stderr.on('data', (chunk: string) => (out += chunk));
    child.on('error', (err) => resolve({ code: null, out, error: err.message }));
    child.on('close', (code) => resolve({ code, out }));
  });
}

/** Find a command on PATH (absolute paths are taken as they are). */
export function findCommand(command: string, pathEnv: string): string | null {
  if (command.includes('/')) {
    return existsSync(command) ? command : null;
  }
  for (const dir of pathEnv.split(':')) {
    const candidate = path.join(dir || '.', command);
    if (existsSync(candidate)) {
      return candidate;
    }
  }
  return null;
}

export class AnsibleToolchain {
  protected state: ToolchainState;
  private probing: Promise<ToolchainState> | null = null;
  private probed: Promise<ToolchainState> | null = null;
  readonly plugins = pluginsDir();

  constructor(private readonly options: ToolchainOptions = {}) {
    this.state = {
      ansible: { available: false, error: 'not probed yet' },
      sandbox: { available: false, error: 'not probed yet', mode: options.sandbox ?? 'bwrap' },
      refusedBuilds: 0,
    };
  }

  get pathEnv(): string {
    return this.options.pathEnv ?? process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin';
  }

  /** The `ansible-playbook` command found by the last probe. */
  get ansiblePlaybook(): string {
    return findCommand(this.options.ansiblePlaybook ?? 'ansible-playbook', this.pathEnv) ?? 'ansible-playbook';
  }

  get bwrap(): string {
    return findCommand(this.options.bwrap ?? 'bwrap', this.pathEnv) ?? 'bwrap';
  }

  get sandboxMode(): SandboxMode {
    return this.options.sandbox ?? 'bwrap';
  }

  /**
   * A directory the sandbox must show read-only besides `/usr` when Ansible lives elsewhere
   * (a virtual environment), else null.
   */
  get installRoot(): string | null {
    try {
      const real = realpathSync(this.ansiblePlaybook);
      const root = path.dirname(path.dirname(real));
      return root === '/usr' || root.startsWith('/usr/') ? null : root;
    } catch {
      return null;
    }
  }

  current(): ToolchainState {
    return { ...this.state, ansible: { ...this.state.ansible }, sandbox: { ...this.state.sandbox } };
  }

  /** The first probe's answer (probing now if nothing did yet). */
  ready(): Promise<ToolchainState> {
    this.probed ??= this.probe();
    return this.probed;
  }

  /** Probe both tools (one probe at a time). */
  probe(): Promise<ToolchainState> {
    this.probing ??= this.runProbe().finally(() => {
      this.probing = null;
    });
    return this.probing;
  }

  /**
   * The two tools are probed side by side (so are the sandbox's version and its trial run):
   * `ansible-playbook --version` alone is a Python start-up of a second or more on a loaded host,
   * and the executor starts only after the probe.
   */
  protected async runProbe(): Promise<ToolchainState> {
    const env = { PATH: this.pathEnv, LANG: 'C.UTF-8' };
    const [ansible, sandbox] = await Promise.all([this.probeAnsible(env), this.probeSandbox(env)]);
    this.state = { ...this.state, ansible, sandbox: { ...sandbox, mode: this.sandboxMode } };
    return this.current();
  }

  private async probeAnsible(env: Record<string, string>): Promise<ToolState> {
    const command = findCommand(this.options.ansiblePlaybook ?? 'ansible-playbook', this.pathEnv);
    if (command === null) {
      return { available: false, error: 'ansible-playbook is not installed (Debian package ansible-core)' };
    }
    const answer = await run(command, ['--version'], env);
    return answer.code === 0
      ? { available: true, version: answer.out.split('\n')[0].trim() }
      : { available: false, error: `ansible-playbook --version failed: ${(answer.error ?? answer.out).trim()}` };
  }

  private async probeSandbox(env: Record<string, string>): Promise<ToolState> {
    if (this.sandboxMode === 'none') {
      return { available: false, error: 'disabled by executor.sandbox: none (untrusted playbooks run unrestricted)' };
    }
    const bwrap = findCommand(this.options.bwrap ?? 'bwrap', this.pathEnv);
    if (bwrap === null) {
      return { available: false, error: 'bwrap is not installed (Debian package bubblewrap)' };
    }
    const [version, tried] = await Promise.all([run(bwrap, ['--version'], env), run(bwrap, sandboxProbeArgs(), env)]);
    return tried.code === 0
      ? { available: true, version: version.out.trim() }
      : {
          available: false,
          error: `the kernel refuses the bubblewrap sandbox: ${(tried.error ?? tried.out).trim() || `exit code ${tried.code}`}`,
        };
  }

  /** A build needed something missing here: counted for the health answer. */
  refused(job: string, build: string, reason: string): void {
    this.state = { ...this.state, refusedBuilds: this.state.refusedBuilds + 1, lastRefused: { job, build, reason } };
  }
}
