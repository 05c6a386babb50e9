/**
 * git for the test helpers (the fakes' repositories, fixtures): src/sources/git-cli.ts `git`,
 * which starts git from a small process (src/sources/git-runner.ts), with no automatic maintenance or
 * garbage collection in the fixtures' short-lived repositories.
 */
import { git as gitCli, gitConfigEnv, type GitResult } from '../../src/sources/git-cli';

/** Git configuration (environment) turning off `maintenance --auto` and `gc --auto` after commits and pushes. */
export const NO_HOUSEKEEPING = gitConfigEnv({ 'maintenance.auto': 'false', 'gc.auto': '0', 'receive.autogc': 'false' });

export function git(cwd: string, args: string[], extraEnv: Record<string, string> = {}): Promise<GitResult> {
  return gitCli(cwd, args, { ...NO_HOUSEKEEPING, ...extraEnv });
}
