/**
 * Running a build's steps on a static node over SSH with the system `ssh` client. Before the first
 * step the workspace (`src/` and `work/`) is copied to `<remote root>` on the node (tar over
 * ssh); each step then runs there (`cd <checkout> && env VARS... bash <script>`) with paths under
 * the local workspace rewritten to the remote one; after the last step the results file is copied
 * back so the runner reads it as usual. Host keys from the launcher's node scan are the only keys
 * accepted (`StrictHostKeyChecking=yes`); without any, host key checking is off. Files naming
 * workspace paths (the node inventory, the SSH config) get the same rewriting; with a build agent
 * the step sessions forward it, so steps reach the build's other SSH nodes (ssh-agent.ts).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { BuildNode } from '../model/build-request';

/** How the runner runs steps somewhere else than in the local workspace. */
export interface RemoteSteps {
  /** Copy the workspace to the node (called once, after the vars and inputs files exist). */
  prepare(): Promise<void>;
  /**
   * The local process that runs one step remotely. `secretsFile` (a path in the local
   * workspace) is created on the node for the step's duration from the process's standard
   * input (never the command line), mode 0600, and removed when the step ends.
   */
  command(step: {
    script: string;
    cwd: string;
    env: Record<string, string>;
    executable: boolean;
    secretsFile?: { path: string; content: string };
  }): {
    command: string;
    args: string[];
    env: Record<string, string>;
    input?: string;
  };
  /**
   * Copy the results file back and remove the remote workspace (called after the last step);
   * `keep` leaves the remote workspace in place (a paused build continues there later).
   */
  collect(options?: { keep?: boolean }): Promise<void>;
  /** The workspace root on the node (absolute once `prepare` ran); a resumed build is given it back. */
  remoteRoot(): string;
}

export interface SshStepsOptions {
  node: BuildNode;
  /** Private key file of the tenant SSH key (mode 0600). */
  keyFile: string;
  /** The build's local workspace root. */
  localRoot: string;
  /** Workspace root on the node; default `sluice-builds/<basename of localRoot>` in the login directory. */
  remoteRoot?: string;
  /** Directory for the generated known_hosts file. */
  stateDir: string;
  /** Environment of the local `ssh` processes (PATH). */
  env: Record<string, string>;
  /** Workspace-relative files whose local workspace paths are rewritten to the remote ones on the node. */
  rewriteFiles?: readonly string[];
  /** Socket of the build's ssh-agent, forwarded to the step sessions. */
  agentSocket?: string;
}

/** Quote a string for a POSIX shell. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

function rewrite(value: string, from: string, to: string): string {
  return value.split(from).join(to);
}

function runCommand(
  command: string,
  args: string[],
  env: Record<string, string>,
  options: { input?: NodeJS.ReadableStream } = {},
): Promise<{ code: number | null; stdout: Buffer; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: [options.input ? 'pipe' : 'ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      stderr += chunk;
    });
    if (options.input && child.stdin) {
      options.input.pipe(child.stdin);
    }
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out), stderr }));
  });
}

/** Remote step execution on an SSH node. */
export function sshRemoteSteps(options: SshStepsOptions): RemoteSteps {
  const { node } = options;
  if (node.host === null) {
    throw new Error(`Node ${node.id} has no host`);
  }
  // Relative to the login directory until `prepare` resolves it to an absolute path.
  let remoteRoot = options.remoteRoot ?? `sluice-builds/${path.basename(options.localRoot)}`;
  mkdirSync(options.stateDir, { recursive: true });
  const knownHosts = path.join(options.stateDir, `known_hosts-${node.id}`);
  writeFileSync(knownHosts, node.hostKeys.map((line) => `${line}\n`).join(''), { mode: 0o600 });
  const destination = node.username === null ? node.host : `${node.username}@${node.host}`;
  const sshArgs = [
    '-i',
    options.keyFile,
    '-p',
    String(node.port ?? 22),
    '-o',
    'BatchMode=yes',
    '-o',
    'IdentitiesOnly=yes',
    '-o',
    `UserKnownHostsFile=${knownHosts}`,
    '-o',
    `StrictHostKeyChecking=${node.hostKeys.length > 0 ? 'yes' : 'no'}`,
    '-o',
    'LogLevel=ERROR',
    destination,
  ];
  const localResults = path.join(options.localRoot, 'work', 'results.json');
  const stepArgs = options.agentSocket === undefined ? sshArgs : ['-o', 'ForwardAgent=yes', ...sshArgs];
  const stepEnv =
    options.agentSocket === undefined ? options.env : { ...options.env, SSH_AUTH_SOCK: options.agentSocket };

  return {
    async prepare() {
      const tar = spawn('tar', ['-C', options.localRoot, '-cf', '-', 'src', 'work'], {
        env: options.env,
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const remote = `rm -rf ${shellQuote(remoteRoot)} && mkdir -p ${shellQuote(remoteRoot)} && tar -C ${shellQuote(remoteRoot)} -xf - && cd ${shellQuote(remoteRoot)} && pwd`;
      const result = await runCommand('ssh', [...sshArgs, remote], options.env, { input: tar.stdout });
      if (result.code !== 0) {
        throw new Error(`Copying the workspace to ${destination} failed: ${result.stderr.trim()}`);
      }
      remoteRoot = result.stdout.toString('utf8').trim();
      for (const file of options.rewriteFiles ?? []) {
        const local = path.join(options.localRoot, file);
        if (!existsSync(local)) {
          continue;
        }
        const content = rewrite(readFileSync(local, 'utf8'), options.localRoot, remoteRoot);
        const copied = await runCommand(
          'ssh',
          [...sshArgs, `cat > ${shellQuote(`${remoteRoot}/${file}`)}`],
          options.env,
          { input: Readable.from([content]) },
        );
        if (copied.code !== 0) {
          throw new Error(`Copying ${file} to ${destination} failed: ${copied.stderr.trim()}`);
        }
      }
    },
    command(step) {
      const toRemote = (value: string): string => rewrite(value, options.localRoot, remoteRoot);
      const assignments = Object.entries(step.env)
        .filter(([key]) => key !== 'PATH' && key !== 'HOME')
        .map(([key, value]) => `${key}=${shellQuote(toRemote(value))}`);
      const script = toRemote(step.script);
      const run = step.executable ? shellQuote(script) : `bash ${shellQuote(script)}`;
      const command = `cd ${shellQuote(toRemote(step.cwd))} && env ${assignments.join(' ')} ${run} < /dev/null`;
      if (step.secretsFile === undefined) {
        return { command: 'ssh', args: [...stepArgs, command], env: stepEnv };
      }
      const file = shellQuote(toRemote(step.secretsFile.path));
      const remote = `(umask 077 && rm -f ${file} && cat > ${file}) && { ${command}; }; rc=$?; rm -f ${file}; exit $rc`;
      return { command: 'ssh', args: [...stepArgs, remote], env: stepEnv, input: step.secretsFile.content };
    },
    async collect(collectOptions = {}) {
      const remoteResults = `${remoteRoot}/work/results.json`;
      const result = await runCommand(
        'ssh',
        [...sshArgs, `test -f ${shellQuote(remoteResults)} && cat ${shellQuote(remoteResults)}`],
        options.env,
      );
      if (result.code === 0) {
        writeFileSync(localResults, result.stdout);
      } else {
        rmSync(localResults, { force: true });
      }
      if (collectOptions.keep !== true) {
        // The node keeps nothing of the build.
        await runCommand('ssh', [...sshArgs, `rm -rf ${shellQuote(remoteRoot)}`], options.env);
      }
    },
    remoteRoot: () => remoteRoot,
  };
}
