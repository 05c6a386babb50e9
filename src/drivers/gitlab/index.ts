/**
 * The GitLab driver (docs/gitlab.md): merge requests as changes, webhooks as `gl_merge_request`
 * and `gl_push` trigger events, notes, approvals and labels as reports, merges through the API.
 */
import path from 'node:path';
import { sleepOn, systemClock } from '../../engine/ports/clock';
import { GitConnection } from '../../sources/git-connection';
import { sshKnownHostsFile } from '../../sources/git-ssh';
import { connectionEventIntake } from '../connection-event-intake';
import type { Driver } from '../driver';
import { ownedChange } from '../depends-on';
import { GitLabChangeSource, mergeRequestOfUrl } from './change-source';
import { GitLabConnection, gitlabConnection, gitlabWeb, type GitLabConnectionConfig } from './connection';
import { gitlabWebhooks, triggersOf } from './events';
import { DEFAULT_MERGE_WAIT, mergeMergeRequest } from './merge';
import { GitLabReporter } from './reporter';
import { gitlabReporters, gitlabRequirements, gitlabTriggers } from './rules';

export const gitlabDriver = {
  name: 'gitlab',
  connection: {
    schema: gitlabConnection,
    files: (settings) => [{ key: 'sshkey', file: settings.sshkey, kind: 'readable' as const }],
    resolvePaths(settings, resolve) {
      if (settings.sshkey !== undefined) {
        settings.sshkey = resolve(settings.sshkey);
      }
    },
    canonicalHostname: (_name, settings) => settings.canonicalHostname ?? settings.server,
    publicInfo: (name, settings) => {
      const gitlab = new GitLabConnection(name, settings);
      return { baseurl: gitlab.web, canonicalHostname: gitlab.canonicalHostname, server: settings.server };
    },
    changeOfUrl: (_name, settings, url) =>
      ownedChange(url, gitlabWeb(settings), settings.canonicalHostname ?? settings.server, mergeRequestOfUrl),
    // Configuration is read from clones over HTTP with the connection's token, or over SSH (docs/gitlab.md#repositories).
    configRepositories(name, settings, cacheDir) {
      const gitlab = new GitLabConnection(name, settings);
      return new GitConnection(
        name,
        {
          driver: 'git',
          baseurl: gitlab.web,
          pollInterval: 60,
          canonicalHostname: gitlab.canonicalHostname,
          repositoryUrl: async (project: string) => `${gitlab.gitBaseUrl()}/${project}.git`,
          // The cache is `<dataDir>/git-cache` (src/config/load-tenants.ts): host keys go to `<dataDir>`.
          gitEnv: gitlab.gitEnv(sshKnownHostsFile(path.dirname(cacheDir))),
          // `exclude-unprotected-branches` (docs/gitlab.md#protected-branches).
          protectedBranches: (project: string) => gitlab.protectedBranches(project),
        },
        cacheDir,
      );
    },
  },
  triggers: gitlabTriggers,
  reporters: gitlabReporters,
  requirements: gitlabRequirements,
  runtime(context) {
    const gitlab = new Map(
      [...context.connections].map(([name, settings]) => [
        name,
        new GitLabConnection(name, settings, sleepOn(context.timers ?? systemClock)),
      ]),
    );
    const intake = connectionEventIntake({
      knex: context.knex,
      connections: [...gitlab.keys()],
      processOne: async (row, trx, woken) => {
        const connection = gitlab.get(row.connection);
        if (!connection) {
          return `no GitLab connection ${row.connection}`;
        }
        const triggers = triggersOf(row.payload, context.now().toISOString());
        let submitted = 0;
        const excluded: string[] = [];
        const reload: string[] = [];
        for (const trigger of triggers) {
          const canonical = `${connection.canonicalHostname}/${trigger.project}`;
          const branch = trigger.branch;
          let protectedNow: boolean | null | undefined;
          for (const tenant of context.projects.tenantsOf(canonical)) {
            // `exclude-unprotected-branches` (docs/gitlab.md#protected-branches): the branch's
            // protection is read again, as the reference does on every event of a branch; a change
            // since the tenant's load reloads the tenant, and only protected branches' events count.
            const protectedBranches = context.projects.protectedBranchesOf(tenant, canonical);
            if (protectedBranches !== undefined && branch !== undefined) {
              const loaded = protectedBranches.includes(branch);
              protectedNow ??= await connection.branchProtected(trigger.project, branch);
              if (protectedNow !== null && protectedNow !== loaded) {
                reload.push(tenant);
                excluded.push(`${tenant}: ${branch} is ${protectedNow ? 'protected' : 'unprotected'} now, reloading`);
                continue;
              }
              if (!loaded) {
                excluded.push(`${tenant}: ${branch} is not protected`);
                continue;
              }
            }
            await context.triggers.record(tenant, { ...trigger, project: canonical, connection: row.connection }, trx);
            woken.add(tenant);
            submitted += 1;
          }
        }
        if (reload.length > 0) {
          context.reloadTenants?.([...new Set(reload)]);
        }
        if (triggers.length === 0) {
          return 'ignored';
        }
        return excluded.length === 0 ? `submitted ${submitted}` : `submitted ${submitted}; ${excluded.join('; ')}`;
      },
      wake: (tenant) => context.triggers.wake(tenant),
      now: context.now,
      logger: context.log,
    });
    return {
      changes: new GitLabChangeSource(gitlab, context.projects, context.changeOfUrl),
      mergeToBranch: async (item) => {
        const location = context.projects.locate(item.project);
        const connection = location ? gitlab.get(location.connection) : undefined;
        if (!connection || !location || item.number === null) {
          return null;
        }
        return mergeMergeRequest(connection, location.name, item.number, item.patchset, item.mergeMode, {
          ...DEFAULT_MERGE_WAIT,
          timers: context.timers ?? DEFAULT_MERGE_WAIT.timers,
        });
      },
      reporter: new GitLabReporter(gitlab, context.log),
      // The executor clones over HTTP with the connection's token, or over SSH (docs/gitlab.md#repositories).
      repositories: new Map(
        [...gitlab].map(([name, connection]) => [
          name,
          {
            baseurl: connection.gitBaseUrl(),
            canonicalHostname: connection.canonicalHostname,
            gitEnv: connection.gitEnv(sshKnownHostsFile(context.dataDir)),
          },
        ]),
      ),
      tasks: [
        {
          name: 'gitlab-events',
          role: 'scheduler',
          start: () => intake.start(),
          stop: async () => {
            await intake.stop();
            gitlab.forEach((connection) => connection.close());
          },
        },
      ],
      wake: () => intake.wake(),
      idle: () => intake.idle(),
    };
  },
  webhooks: gitlabWebhooks,
} satisfies Driver<GitLabConnectionConfig>;
