/**
 * Git over SSH for the connections that fetch with a key (Gerrit's `git_over_ssh`, a GitLab
 * `cloneurl` of `ssh://`; docs/gerrit.md#repositories, docs/gitlab.md#repositories): the file of
 * host keys trusted on first use and the environment git runs OpenSSH with.
 */
import path from 'node:path';

/** A word quoted for the shell git runs `GIT_SSH_COMMAND` with. */
function shellQuoted(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The file of SSH host keys git over SSH trusts and records: `<dataDir>/ssh_known_hosts`. */
export function sshKnownHostsFile(dataDir: string): string {
  return path.join(dataDir, 'ssh_known_hosts');
}

/**
 * The environment of git over SSH: OpenSSH with `sshkey` as the only key offered (`-i`,
 * `IdentitiesOnly`; without a key, the user's own identities), never asking (`BatchMode`), host
 * keys trusted on first use and recorded in `knownHosts` (`StrictHostKeyChecking=accept-new`: a
 * changed key is refused), as the reference records them. User and port are in the URL.
 */
export function sshGitEnv(sshkey: string | undefined, knownHosts: string): Record<string, string> {
  const options = [
    ...(sshkey === undefined ? [] : ['-i', shellQuoted(sshkey), '-o IdentitiesOnly=yes']),
    '-o BatchMode=yes',
    '-o StrictHostKeyChecking=accept-new',
    `-o UserKnownHostsFile=${shellQuoted(knownHosts)}`,
  ];
  return { GIT_SSH_COMMAND: `ssh ${options.join(' ')}` };
}
