/**
 * One process per embedded store (docs/operations.md#one-process-per-embedded-store): PGlite
 * runs PostgreSQL inside the process, so two processes on one data directory would each write
 * the same files with no lock between them. The process that opens a data directory first holds
 * a lock on it until it closes the store; another is refused, told the directory and the pid of
 * the holder.
 *
 * The lock is a listening Unix socket in Linux's abstract namespace, named after the directory's
 * real path: the kernel lets one socket have a name, and the name goes with the process (a
 * crashed holder leaves nothing stale behind). The holder answers a connection with its pid.
 * Elsewhere (no abstract namespace) no lock is taken.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, realpathSync } from 'node:fs';
import net from 'node:net';

/** Words of every refusal's message (knex's log of a failed open is recognised by them). */
export const IN_USE_BY_ANOTHER_PROCESS = 'is in use by another process';

export class DataDirectoryInUseError extends Error {
  constructor(
    readonly directory: string,
    /** The holder's pid; undefined when it did not answer (it was exiting). */
    readonly pid: number | undefined,
  ) {
    super(
      `the embedded database ${directory} ${IN_USE_BY_ANOTHER_PROCESS} (pid ${pid ?? 'unknown'}): ` +
        'one process per embedded store; stop that one first or give this one another dataDir',
    );
    this.name = 'DataDirectoryInUseError';
  }
}

export interface DataDirectoryLock {
  release(): Promise<void>;
}

const NO_LOCK: DataDirectoryLock = { release: () => Promise.resolve() };

/** The abstract socket name of a directory (created if missing, so its real path is known). */
export function lockName(directory: string): string {
  mkdirSync(directory, { recursive: true });
  const digest = createHash('sha256').update(realpathSync(directory)).digest('hex').slice(0, 40);
  return `\0sluice-embedded-store-${digest}`;
}

/** Take the lock of `directory`; rejects with DataDirectoryInUseError while another holds it. */
export async function lockDataDirectory(directory: string): Promise<DataDirectoryLock> {
  if (process.platform !== 'linux') {
    return NO_LOCK;
  }
  const name = lockName(directory);
  const server = net.createServer((socket) => socket.end(`${process.pid}\n`));
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(name, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new DataDirectoryInUseError(directory, await holderPid(name));
    }
    throw err;
  }
  server.unref(); // the lock never keeps the process alive
  return {
    release: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Ask the holder of `name` for its pid. */
function holderPid(name: string): Promise<number | undefined> {
  return new Promise((resolve) => {
    let text = '';
    const socket = net.connect(name);
    socket.setTimeout(2000, () => socket.destroy());
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      const pid = Number.parseInt(text, 10);
      resolve(Number.isInteger(pid) && pid > 0 ? pid : undefined);
    });
  });
}
