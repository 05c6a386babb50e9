/**
 * What some test files need from the machine beyond the embedded store. A test whose
 * precondition is unmet is skipped with the reason in its title, and the end of `npm test`
 * names every skipped file and why (test/helpers/skipped-reporter.js).
 */
import { postgresBinDir } from './private-cluster';
import { sshdAvailable } from './sshd';

export interface Precondition {
  met: boolean;
  /** Why tests needing it are skipped, as the summary prints it. */
  reason: string;
}

/** The title mark the reporter reads; keep in step with test/helpers/skipped-reporter.js. */
export const SKIP_MARK = '[skipped: ';

export const POSTGRES: Precondition = {
  met: Boolean(process.env.DATABASE_URL),
  reason: 'no DATABASE_URL (PostgreSQL only)',
};

/** Several `sluice serve` processes on one database: the embedded store serves one process. */
export const MULTI_PROCESS: Precondition = {
  met: Boolean(process.env.DATABASE_URL),
  reason: 'no DATABASE_URL (several processes on one database need PostgreSQL)',
};

export const SSHD: Precondition = {
  met: sshdAvailable(),
  reason: '/usr/sbin/sshd is not installed',
};

export const POSTGRES_BINARIES: Precondition = {
  met: postgresBinDir() !== null,
  reason: 'no PostgreSQL server binaries (/usr/lib/postgresql/*/bin) to start a private cluster',
};

function skippedTitle(title: string, precondition: Precondition): string {
  return `${title} ${SKIP_MARK}${precondition.reason}]`;
}

/** `describe` when the precondition holds, else `describe.skip` with the reason in the title. */
export function describeIf(precondition: Precondition): (title: string, body: () => void) => void {
  return (title, body) =>
    precondition.met ? describe(title, body) : describe.skip(skippedTitle(title, precondition), body);
}

/** `it` when the precondition holds, else `it.skip` with the reason in the title. */
export function itIf(precondition: Precondition): (title: string, body: () => Promise<void>, timeout?: number) => void {
  return (title, body, timeout) =>
    precondition.met ? it(title, body, timeout) : it.skip(skippedTitle(title, precondition), body, timeout);
}
