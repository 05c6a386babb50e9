/**
 * A per-build `ssh-agent` holding the executor's keys for the build's other SSH nodes. Steps that
 * run on an SSH primary node reach the other nodes through it (agent forwarding): the keys never
 * leave the executor, and the agent is stopped when the build ends.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface BuildAgent {
  /** `SSH_AUTH_SOCK` of the agent. */
  socket: string;
  stop(): Promise<void>;
}

function run(
  command: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

/** Start an agent (a short socket path under the temporary directory) and add the key files to it. */
export async function startBuildAgent(keyFiles: readonly string[], env: Record<string, string>): Promise<BuildAgent> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sluice-agent-'));
  const socket = path.join(dir, 'agent.sock');
  const child = spawn('ssh-agent', ['-D', '-a', socket], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
    }
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    stderr += chunk;
  });
  // The agent prints its `SSH_AUTH_SOCK=...` line once the socket is listening.
  const ready = await new Promise<boolean>((resolve) => {
    child.stdout.once('data', () => resolve(true));
    child.once('error', () => resolve(false));
    child.once('close', () => resolve(false));
  });
  if (!ready) {
    await stop();
    throw new Error(`Starting ssh-agent failed: ${stderr.trim() || 'it exited'}`);
  }
  child.stdout.resume();
  for (const keyFile of keyFiles) {
    const added = await run('ssh-add', ['-q', keyFile], { ...env, SSH_AUTH_SOCK: socket }).catch((err: unknown) => ({
      code: null,
      stderr: String(err),
    }));
    if (added.code !== 0) {
      await stop();
      throw new Error(`Adding the SSH key ${keyFile} to the build's agent failed: ${added.stderr.trim()}`);
    }
  }
  return { socket, stop };
}
