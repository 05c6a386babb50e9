/**
 * git for the test helpers (the fakes' repositories, fixtures): src/sources/git-cli.ts `git`,
 * which starts git from a small process (src/sources/git-runner.ts), with no automatic maintenance or
 * garbage collection in the fixtures' short-lived repositories.
 */
import { git as gitCli, type GitResult } from '../../src/sources/git-cli';

/** Git configuration (environment) turning off `maintenance --auto` and `gc --auto` after commits and pushes. */
export const NO_HOUSEKEEPING: Readonly<Record<string, string>> = {
  GIT_CONFIG_COUNT: '3',
  GIT_CONFIG_KEY_0: 'maintenance.auto',
  GIT_CONFIG_VALUE_0: 'false',
  GIT_CONFIG_KEY_1: 'gc.auto',
  GIT_CONFIG_VALUE_1: '0',
  GIT_CONFIG_KEY_2: 'receive.autogc',
  GIT_CONFIG_VALUE_2: 'false',
};

export function git(cwd: string, args: string[], extraEnv: Record<string, string> = {}): Promise<GitResult> {
  return gitCli(cwd, args, { ...NO_HOUSEKEEPING, ...extraEnv });
}
