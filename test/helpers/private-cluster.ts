/**
 * A private PostgreSQL cluster for tests that stop and restart the server: made with initdb in a
 * temporary directory and run with pg_ctl on a free port, never touching the shared server. The
 * binaries come from /usr/lib/postgresql/<version>/bin; as root they run as the `postgres` user
 * (initdb refuses root).
 */
import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const PG_ROOT = '/usr/lib/postgresql';

/** The bin directory of the newest installed PostgreSQL with initdb and pg_ctl, or null. */
export function postgresBinDir(): string | null {
  if (!existsSync(PG_ROOT)) {
    return null;
  }
  const versions = readdirSync(PG_ROOT)
    .filter((entry) => existsSync(path.join(PG_ROOT, entry, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length === 0 ? null : path.join(PG_ROOT, versions[0] ?? '', 'bin');
}

/** A TCP port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** uid and gid of the `postgres` user (when running as root), else undefined. */
function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) {
    return undefined;
  }
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('postgres:'));
  if (!line) {
    throw new Error('running as root needs a postgres user to run initdb as');
  }
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

export class PrivateCluster {
  private constructor(
    private readonly bin: string,
    readonly dir: string,
    readonly port: number,
    private readonly user: { uid: number; gid: number } | undefined,
  ) {}

  /** initdb in a new temporary directory; `start()` runs it. */
  static async create(bin: string): Promise<PrivateCluster> {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sluice-pg-'));
    const user = runAs();
    if (user) {
      chownSync(dir, user.uid, user.gid);
    }
    const cluster = new PrivateCluster(bin, dir, await freePort(), user);
    await cluster.pg('initdb', ['-D', cluster.dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync']);
    return cluster;
  }

  get dataDir(): string {
    return path.join(this.dir, 'data');
  }

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  /** Start and wait until it accepts connections. */
  async start(): Promise<void> {
    const options = [
      `-p ${this.port}`,
      `-k ${this.dir}`,
      '-c listen_addresses=127.0.0.1',
      '-c fsync=off',
      '-c shared_buffers=32MB',
      '-c max_connections=60',
    ].join(' ');
    await this.pg('pg_ctl', [
      '-D',
      this.dataDir,
      '-l',
      path.join(this.dir, 'server.log'),
      '-w',
      '-t',
      '60',
      '-o',
      options,
      'start',
    ]);
  }

  /** Stop: `fast` ends sessions and checkpoints; `immediate` is a crash (recovery at the next start). */
  async stop(mode: 'fast' | 'immediate'): Promise<void> {
    await this.pg('pg_ctl', ['-D', this.dataDir, '-m', mode, '-w', '-t', '60', 'stop']);
  }

  /**
   * Freeze the server (SIGSTOP to the postmaster and its backends, this cluster's own processes):
   * it neither answers nor refuses, like a server behind a network partition. `thaw` resumes it.
   */
  freeze(): void {
    this.signalAll('SIGSTOP');
  }

  thaw(): void {
    this.signalAll('SIGCONT');
  }

  private signalAll(signal: NodeJS.Signals): void {
    const postmaster = Number(readFileSync(path.join(this.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    const pids = [postmaster];
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) {
        continue;
      }
      try {
        // Field 4 of /proc/<pid>/stat is the parent pid (the name in field 2 is in parentheses).
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        if (Number(fields[1]) === postmaster) {
          pids.push(Number(entry));
        }
      } catch {
        // The process ended meanwhile.
      }
    }
    for (const pid of pids) {
      process.kill(pid, signal);
    }
  }

  /** Stop (if running) and remove the directory. */
  async destroy(): Promise<void> {
    try {
      this.thaw();
    } catch {
      // Not running.
    }
    await this.stop('immediate').catch(() => undefined);
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** The server log (for failure messages). */
  log(): string {
    try {
      return readFileSync(path.join(this.dir, 'server.log'), 'utf8');
    } catch {
      return '';
    }
  }

  private async pg(tool: string, args: string[]): Promise<void> {
    await run(path.join(this.bin, tool), args, { cwd: this.dir, ...this.user, timeout: 90_000 });
  }
}
