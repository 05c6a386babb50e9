/**
 * The GitHub driver (docs/github.md): pull requests as changes, webhooks as trigger events,
 * commit statuses, check runs, comments, labels and reviews as reports, merges through the API.
 */
import { GitConnection } from '../../sources/git-connection';
import type { Driver } from '../driver';
import { ownedChange } from '../depends-on';
import { GitHubChangeSource, pullRequestOfUrl } from './change-source';
import { githubEndpoints, GitHubConnection } from './connection';
import { githubConnection, type GitHubConnectionConfig } from './connection-schema';
import { connectionEventProcessor, githubConnections, githubMerger, githubReporter } from './roles';
import { githubReporters, githubRequirements, githubTriggers } from './rules';
import { githubWebhooks } from './webhook-route';

/** The files a GitHub connection names and what each holds. */
const FILE_KEYS = [
  { key: 'appKeyFile', kind: 'rsa-private-key' },
  { key: 'apiTokenFile', kind: 'secret' },
  { key: 'webhookTokenFile', kind: 'secret' },
] as const;

export const githubDriver = {
  name: 'github',
  connection: {
    schema: githubConnection,
    files: (settings) => FILE_KEYS.map(({ key, kind }) => ({ key, file: settings[key], kind })),
    resolvePaths(settings, resolve) {
      for (const { key } of FILE_KEYS) {
        const file = settings[key];
        if (file !== undefined) {
          settings[key] = resolve(file);
        }
      }
    },
    canonicalHostname: (_name, settings) => settings.canonicalHostname ?? githubEndpoints(settings).host,
    publicInfo: (_name, settings) => {
      const { api, host } = githubEndpoints(settings);
      return { baseurl: api, canonicalHostname: settings.canonicalHostname ?? host, server: host };
    },
    changeOfUrl: (_name, settings, url) => {
      const { web, host } = githubEndpoints(settings);
      return ownedChange(url, web, settings.canonicalHostname ?? host, pullRequestOfUrl);
    },
    // Configuration is read from clones over HTTPS with the connection's token (docs/github.md#repositories).
    configRepositories(name, settings, cacheDir) {
      const github = new GitHubConnection(name, settings);
      const repositories = {
        driver: 'git' as const,
        baseurl: github.web,
        pollInterval: 60,
        canonicalHostname: github.canonicalHostname,
        repositoryUrl: async (project: string) => {
          await github.prepareGit(project);
          return `${github.gitBaseUrl(project)}/${project}`;
        },
        protectedBranches: (project: string) => github.protectedBranches(project),
        lockedBranches: (project: string) => github.lockedBranches(project),
      };
      return new GitConnection(name, repositories, cacheDir);
    },
  },
  triggers: githubTriggers,
  reporters: githubReporters,
  requirements: githubRequirements,
  runtime(context) {
    const github = githubConnections(context.connections, context.timers);
    const intake = connectionEventProcessor({
      database: { knex: context.knex },
      github,
      tenantsOf: (canonicalName) => context.projects.tenantsOf(canonicalName),
      protectedBranchesOf: (tenant, canonicalName) => context.projects.protectedBranchesOf(tenant, canonicalName),
      record: (tenant, event, trx) => context.triggers.record(tenant, event, trx),
      wake: (tenant) => context.triggers.wake(tenant),
      reloadTenants: (tenants) => context.reloadTenants?.(tenants),
      now: context.now,
      logger: context.log,
    });
    return {
      changes: new GitHubChangeSource(github, context.projects, context.changeOfUrl),
      mergeToBranch: githubMerger(github, context.projects),
      reporter: githubReporter(github, context),
      // The executor clones over HTTPS with the installation token of the repository (docs/github.md#repositories).
      repositories: new Map(
        [...github].map(([name, hub]) => [
          name,
          {
            baseurl: (project: string) => hub.gitBaseUrl(project),
            canonicalHostname: hub.canonicalHostname,
            prepare: (project: string) => hub.prepareGit(project),
          },
        ]),
      ),
      tasks: [{ name: 'connection-events', role: 'scheduler', start: () => intake.start(), stop: () => intake.stop() }],
      wake: () => intake.wake(),
      idle: () => intake.idle(),
    };
  },
  webhooks: githubWebhooks,
} satisfies Driver<GitHubConnectionConfig>;
