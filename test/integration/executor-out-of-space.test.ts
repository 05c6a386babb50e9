/**
 * A full disk under the build logs or the workspaces (docs/executor.md#out-of-space), injected:
 * the file system calls of this process fail with ENOSPC for the files a test names once a quota
 * of bytes is used up, as a full disk fails them (a short write first, then ENOSPC). The builds
 * are real (real git, real step processes); the build ends ERROR with the reason, its steps are
 * killed, and the worker goes on with the next build. `test/integration/faults/out-of-space.test.ts`
 * does the same with a real `sluice serve` process on a small tmpfs.
 */
import fs, { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { step } from '../helpers/build-params';
import { createExecutorHarness, type ExecutorHarness } from '../helpers/executor';

const SCRIPTS = {
  // Prints until it is killed; its pid tells the test whether it was.
  'noisy.sh': 'echo $$ > "$SLUICE_VAR_pidfile"\ni=0\nwhile true; do i=$((i+1)); echo "line $i of output"; done\n',
  'mark.sh': 'touch "$SLUICE_VAR_mark"\necho marked\n',
};

type OpenSync = (file: fs.PathLike, flags?: fs.OpenMode, mode?: fs.Mode | null) => number;
type WriteSync = (fd: number, buffer: NodeJS.ArrayBufferView, offset?: number, length?: number) => number;
type WriteFileSync = (file: fs.PathOrFileDescriptor, data: string | NodeJS.ArrayBufferView, options?: unknown) => void;

function enospc(syscall: string, file?: string): NodeJS.ErrnoException {
  const err: NodeJS.ErrnoException = new Error(
    `ENOSPC: no space left on device, ${syscall}${file === undefined ? '' : ` '${file}'`}`,
  );
  err.code = 'ENOSPC';
  err.errno = -28;
  err.syscall = syscall;
  return err;
}

/**
 * Files whose path matches `full` get `quota` bytes in all (0: they cannot even be opened),
 * then ENOSPC. Restored by `jest.restoreAllMocks()`.
 */
function fillDisk(full: (file: string) => boolean, quota: number): void {
  const realOpen = fs.openSync.bind(fs) as OpenSync;
  const realWrite = fs.writeSync.bind(fs) as unknown as WriteSync;
  const realWriteFile = fs.writeFileSync.bind(fs) as WriteFileSync;
  const fds = new Set<number>();
  let left = quota;
  jest.spyOn(fs, 'openSync').mockImplementation(((file, flags, mode) => {
    if (full(String(file)) && left === 0) {
      throw enospc('open', String(file));
    }
    const fd = realOpen(file, flags, mode);
    if (full(String(file))) {
      fds.add(fd);
    }
    return fd;
  }) as OpenSync);
  jest.spyOn(fs, 'writeSync').mockImplementation(((
    fd: number,
    buffer: NodeJS.ArrayBufferView,
    offset = 0,
    length?: number,
  ) => {
    if (!fds.has(fd)) {
      return realWrite(fd, buffer, offset, length);
    }
    const wanted = length ?? buffer.byteLength - offset;
    if (left === 0) {
      throw enospc('write');
    }
    const written = realWrite(fd, buffer, offset, Math.min(wanted, left));
    left -= written;
    return written;
  }) as unknown as typeof fs.writeSync);
  jest.spyOn(fs, 'writeFileSync').mockImplementation(((file, data, options) => {
    if (typeof file === 'string' && full(file)) {
      throw enospc('open', file);
    }
    realWriteFile(file, data, options);
  }) as WriteFileSync);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('a full disk under the executor', () => {
  let harness: ExecutorHarness;

  beforeAll(async () => {
    harness = await createExecutorHarness(SCRIPTS);
    harness.worker.start();
  });

  afterEach(() => jest.restoreAllMocks());

  afterAll(() => harness.close());

  function logFile(uuid: string): string {
    return path.join(harness.logsDir, 'example', uuid.slice(0, 2), uuid, 'job-output.txt');
  }

  it('a log disk filling up while a step prints: the build ends ERROR with the reason and its step is killed', async () => {
    const uuid = 'f1000000000000000000000000000001';
    const pidfile = path.join(harness.root, 'noisy.pid');
    fillDisk((file) => file === logFile(uuid), 64 * 1024);
    await harness.enqueue(uuid, { run: [step('noisy.sh')], vars: { pidfile } });
    const done = await harness.completion(uuid);
    expect(done).toMatchObject({
      result: 'ERROR',
      errorDetail: 'The build log could not be written: ENOSPC: no space left on device, write',
    });
    // The lines written before the disk filled are whole lines; the last one may be cut short.
    const written = readFileSync(logFile(uuid), 'utf8');
    expect(written.length).toBe(64 * 1024);
    expect(written).toMatch(/^\d{4}-\d\d-\d\d [\d:.]+ \| Job unit \(build f1000000000000000000000000000001/);
    expect(written).toContain('| line 1 of output\n');
    // The step printed forever: the build stopped it.
    const pid = Number(readFileSync(pidfile, 'utf8').trim());
    expect(isAlive(pid)).toBe(false);

    // The worker goes on: with space again, the next build runs as usual.
    jest.restoreAllMocks();
    const next = 'f1000000000000000000000000000002';
    const mark = path.join(harness.root, 'mark-after');
    await harness.enqueue(next, { run: [step('mark.sh')], vars: { mark } });
    expect(await harness.completion(next)).toMatchObject({ result: 'SUCCESS' });
    expect(existsSync(mark)).toBe(true);
  });

  it('a log that cannot be opened: the build ends ERROR with the reason before any step runs', async () => {
    const uuid = 'f1000000000000000000000000000003';
    const mark = path.join(harness.root, 'mark-never');
    fillDisk((file) => file === logFile(uuid), 0);
    await harness.enqueue(uuid, { run: [step('mark.sh')], vars: { mark } });
    const done = await harness.completion(uuid);
    expect(done).toMatchObject({
      result: 'ERROR',
      errorDetail: `The build log could not be written: ENOSPC: no space left on device, open '${logFile(uuid)}'`,
    });
    expect(existsSync(mark)).toBe(false);
  });

  it('a full workspace disk: the build ends ERROR naming it (not a merge conflict), nothing runs', async () => {
    const uuid = 'f1000000000000000000000000000004';
    const mark = path.join(harness.root, 'mark-workspace');
    const workspace = path.join(harness.root, 'builds', uuid);
    fillDisk((file) => file.startsWith(`${workspace}/`), 0);
    await harness.enqueue(uuid, { run: [step('mark.sh')], vars: { mark } });
    const done = await harness.completion(uuid);
    expect(done.result).toBe('ERROR');
    expect(done.errorDetail).toMatch(
      new RegExp(`^Out of space: ENOSPC: no space left on device, open '${workspace}/work/[a-z]+\\.json'$`),
    );
    expect(existsSync(mark)).toBe(false);
    expect(readFileSync(logFile(uuid), 'utf8')).toContain('| Out of space: ENOSPC: no space left on device');
  });
});
