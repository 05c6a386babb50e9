/**
 * Secrets Sluice generates for itself in the data directory (the key-encryption secret, the
 * local admin secret): created once, mode 0600, and shared by every process that opens the same
 * directory.
 */
import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface SecretFile {
  secret: string;
  /** True when this call created the file. */
  created: boolean;
}

/**
 * The secret in `file`, created (32 random bytes, base64) when missing. The value is written
 * whole under a private name, then linked into place (link fails if the file exists): when two
 * processes start at once, one publishes its value and both read it, never a file caught
 * half-written. A file holding fewer than `minLength` characters is an error naming `what`.
 */
export async function readOrCreateSecretFile(file: string, what: string, minLength: number): Promise<SecretFile> {
  await mkdir(path.dirname(file), { recursive: true });
  const generated = `${randomBytes(32).toString('base64')}\n`;
  const draft = `${file}.${process.pid}.${randomBytes(6).toString('hex')}`;
  await writeFile(draft, generated, { flag: 'wx', mode: 0o600 });
  try {
    await link(draft, file);
    return { secret: generated.trim(), created: true };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') {
      throw err;
    }
  } finally {
    await unlink(draft);
  }
  const secret = (await readFile(file, 'utf8')).trim();
  if (secret.length < minLength) {
    throw new Error(`${file}: the ${what} must be at least ${minLength} characters`);
  }
  return { secret, created: false };
}
