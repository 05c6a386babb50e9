/**
 * The git driver (docs/gating.md#sluices-own-rules): projects in plain git repositories, changes
 * as Gerrit-style change refs, polled for new patchsets and branch updates; merging into a
 * branch is the shared git merger's (src/sources/, src/executor/merger-gateway.ts).
 */
import { GitConnection } from '../../sources/git-connection';
import type { Driver } from '../driver';
import { gitConnection, type GitConnectionConfig } from './connection-schema';
import { gitReporters, gitRequirements, gitTriggers } from './rules';
import { gitRuntime } from './runtime';

/** A `baseurl` that is a URL, not a directory. */
const URL_BASE = /^[a-z][a-z0-9+.-]*:\/\//i;

export const gitDriver = {
  name: 'git',
  connection: {
    schema: gitConnection,
    resolvePaths(settings, resolve) {
      if (!URL_BASE.test(settings.baseurl)) {
        settings.baseurl = resolve(settings.baseurl);
      }
      if (settings.seedFrom !== undefined) {
        settings.seedFrom = resolve(settings.seedFrom);
      }
    },
    canonicalHostname: (name, settings) => settings.canonicalHostname ?? name,
    pollInterval: (settings) => settings.pollInterval,
    refUrls: (settings) => settings,
    publicInfo: (name, settings) => ({
      baseurl: settings.baseurl,
      canonicalHostname: settings.canonicalHostname ?? name,
    }),
    configRepositories: (name, settings, cacheDir) => new GitConnection(name, settings, cacheDir),
  },
  triggers: gitTriggers,
  reporters: gitReporters,
  requirements: gitRequirements,
  runtime: gitRuntime,
} satisfies Driver<GitConnectionConfig>;
