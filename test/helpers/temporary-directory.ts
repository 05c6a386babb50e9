/**
 * A test file's own directory under the system's temporary directory, removed once the file's (or
 * the enclosing `describe`'s) tests are done. Call it where jest takes hooks: at module scope or
 * in a `describe` body, not inside a test or another hook.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export function temporaryDirectory(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
