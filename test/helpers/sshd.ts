/**
 * A throw-away sshd for tests: listens on 127.0.0.1 on a free port with a temporary host key and
 * an authorized_keys file holding a client key made here (and on further loopback addresses such
 * as 127.0.0.2 when asked, so one server stands in for several hosts). `sshdAvailable()` says whether the
 * machine has `/usr/sbin/sshd` (tests skip with that reason otherwise).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const SSHD = '/usr/sbin/sshd';

export function sshdAvailable(): boolean {
  return existsSync(SSHD);
}

export interface TestSshd {
  port: number;
  user: string;
  /** Client private key accepted by the server. */
  clientKey: string;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      // Closed outright, not half-closed with end(): sshd sends its banner and waits for ours,
      // and the unread socket would stay open (keeping jest's worker alive) until it gives up.
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export async function startSshd(options: { extraAddresses?: readonly string[] } = {}): Promise<TestSshd> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sluice-sshd-'));
  const hostKey = path.join(dir, 'host_ed25519');
  const clientKey = path.join(dir, 'client_ed25519');
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', hostKey]);
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', clientKey]);
  writeFileSync(path.join(dir, 'authorized_keys'), readFileSync(`${clientKey}.pub`));
  const port = await freePort();
  const config = path.join(dir, 'sshd_config');
  writeFileSync(
    config,
    [
      ...['127.0.0.1', ...(options.extraAddresses ?? [])].map((address) => `ListenAddress ${address}:${port}`),
      `HostKey ${hostKey}`,
      `AuthorizedKeysFile ${path.join(dir, 'authorized_keys')}`,
      `PidFile ${path.join(dir, 'sshd.pid')}`,
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PubkeyAuthentication yes',
      'PermitRootLogin prohibit-password',
      'StrictModes no',
      'UsePAM no',
      '',
    ].join('\n'),
  );
  // Privilege separation directory sshd insists on.
  mkdirSync('/run/sshd', { recursive: true });
  const child: ChildProcess = spawn(SSHD, ['-D', '-e', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (let attempt = 0; attempt < 100 && !(await accepts(port)); attempt += 1) {
    if (child.exitCode !== null) {
      throw new Error(`sshd exited: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    port,
    user: os.userInfo().username,
    clientKey,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
