/**
 * The Gerrit driver (docs/gerrit.md): Gerrit changes as changes, `gerrit stream-events` over SSH
 * as trigger events, votes, review messages and submit over the REST API as reports.
 */
import { GitConnection } from '../../sources/git-connection';
import { sshKnownHostsFile } from '../../sources/git-ssh';
import type { Driver } from '../driver';
import path from 'node:path';
import {
  gerritBaseUrl,
  gerritConnection,
  gerritGitEnv,
  gerritGitUrl,
  type GerritConnectionConfig,
} from './connection-schema';
import { ownedChange } from '../depends-on';
import { gerritChangeOfUrl } from './change-source';
import { gerritReporters, gerritRequirements, gerritTriggers } from './rules';
import { gerritRuntime } from './runtime';

export const gerritDriver = {
  name: 'gerrit',
  connection: {
    schema: gerritConnection,
    files: (settings) => [{ key: 'sshkey', file: settings.sshkey, kind: 'readable' }],
    resolvePaths(settings, resolve) {
      if (settings.sshkey !== undefined) {
        settings.sshkey = resolve(settings.sshkey);
      }
    },
    canonicalHostname: (_name, settings) => settings.canonical_hostname ?? settings.server,
    publicInfo: (_name, settings) => ({
      baseurl: gerritBaseUrl(settings),
      canonicalHostname: settings.canonical_hostname ?? settings.server,
      server: settings.server,
      sshServer: settings.ssh_server ?? settings.server,
      port: settings.port,
    }),
    pollInterval: (settings) => settings.poll_interval,
    changeOfUrl: (_name, settings, url) =>
      ownedChange(url, gerritBaseUrl(settings), settings.canonical_hostname ?? settings.server, gerritChangeOfUrl),
    // Gerrit's own pages: `/c/<project>/+/<number>` and its gitweb (the reference's default template).
    refUrls: (settings) => ({
      baseurl: gerritBaseUrl(settings),
      changeUrlTemplate: '{baseurl}/c/{project.name}/+/{change.number}',
      gitwebUrlTemplate: settings.gitweb_url_template ?? '{baseurl}/gitweb?p={project.name}.git;a=commitdiff;h={sha}',
    }),
    configRepositories: (name, settings, cacheDir) =>
      new GitConnection(
        name,
        {
          driver: 'git',
          baseurl: gerritBaseUrl(settings),
          pollInterval: settings.poll_interval,
          canonicalHostname: settings.canonical_hostname ?? settings.server,
          repositoryUrl: async (project) => gerritGitUrl(settings, project),
          // The cache is `<dataDir>/git-cache` (src/config/load-tenants.ts): host keys go to `<dataDir>`.
          gitEnv: gerritGitEnv(settings, sshKnownHostsFile(path.dirname(cacheDir))),
        },
        cacheDir,
      ),
  },
  triggers: gerritTriggers,
  reporters: gerritReporters,
  requirements: gerritRequirements,
  runtime: gerritRuntime,
} satisfies Driver<GerritConnectionConfig>;
