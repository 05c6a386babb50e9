/**
 * The service configuration of a `driver: gerrit` connection (docs/gerrit.md#the-connection), with
 * the reference's keys as written in its `zuul.conf` (`canonical_hostname`, `gitweb_url_template`,
 * ...); one of the connection schemas of src/config/service-sections.ts.
 */
import { z } from 'zod';
import { refUrlTemplateProblem } from '../../model/ref-url-templates';
import { sshGitEnv } from '../../sources/git-ssh';

/** A number given as a number or as the digits of one (`zuul.conf` values are strings). */
function numeric(options: { integer: boolean; min: number }) {
  return z.union([z.number(), z.string().regex(/^\d+(\.\d+)?$/, 'must be a number')]).transform((value, ctx) => {
    const number = Number(value);
    if ((options.integer && !Number.isInteger(number)) || number < options.min) {
      ctx.addIssue({
        code: 'custom',
        message: `must be ${options.integer ? 'an integer' : 'a number'} >= ${options.min}`,
      });
      return z.NEVER;
    }
    return number;
  });
}

/** A boolean given as one or as `true`/`false` (`zuul.conf` values are strings). */
const flag = z
  .union([z.boolean(), z.enum(['true', 'false', 'True', 'False'])])
  .transform((v) => String(v) === 'true' || v === 'True');

/** `true`, `false` or `auto` (docs/gerrit.md#the-events-log-plugin), as YAML or `zuul.conf` writes them. */
const eventsLogSetting = z.union([z.boolean(), z.string()]).transform((value, ctx): boolean | 'auto' => {
  const text = String(value).toLowerCase();
  if (text === 'true' || text === 'false' || text === 'auto') {
    return text === 'auto' ? 'auto' : text === 'true';
  }
  ctx.addIssue({ code: 'custom', message: 'must be true, false or auto' });
  return z.NEVER;
});

const urlTemplate = z
  .string()
  .min(1)
  .superRefine((template, ctx) => {
    const problem = refUrlTemplateProblem(template);
    if (problem !== null) {
      ctx.addIssue({ code: 'custom', message: problem });
    }
  });

/**
 * HTTP authentication types of the reference: Sluice speaks `basic`, `digest` and `form`
 * (src/drivers/gerrit/http-auth.ts); `gcloud_service` is refused (docs/gerrit.md#not-done).
 */
const AUTH_TYPES = ['basic', 'digest', 'form', 'gcloud_service'] as const;

export const gerritConnection = z
  .object({
    driver: z.literal('gerrit'),
    /** Host name of the Gerrit server (SSH and, without `baseurl`, HTTPS). */
    server: z
      .string()
      .min(1)
      .regex(/^[^\s/:]+$/, 'must be a host name (no scheme, port or path; see baseurl)'),
    /** Host of SSH (the event stream, git over SSH); default `server`. */
    ssh_server: z
      .string()
      .min(1)
      .regex(/^[^\s/:]+$/, 'must be a host name (no scheme, port or path)')
      .optional(),
    /** Host part of canonical project names; default `server`. */
    canonical_hostname: z.string().min(1).optional(),
    /** SSH port of `gerrit stream-events`. */
    port: numeric({ integer: true, min: 1 }).default(29418),
    /** The web and REST base URL; default `https://<server>`. */
    baseurl: z.string().url().optional(),
    /** Commit links (docs/configuration.md#ref-url-templates); default Gerrit's gitweb. */
    gitweb_url_template: urlTemplate.optional(),
    /** The SSH (and HTTP) user name. */
    user: z.string().min(1).default('zuul'),
    /** The SSH private key of `user` (a path, relative to the configuration file). */
    sshkey: z.string().min(1).optional(),
    /** Seconds between SSH keepalives of the event stream (0: none). */
    keepalive: numeric({ integer: true, min: 0 }).default(60),
    /** HTTP password of `user` for the REST API (Gerrit's generated HTTP password); required here. */
    password: z.string().min(1).optional(),
    auth_type: z.enum(AUTH_TYPES).default('basic'),
    /** Seconds an event waits before it is stored (Gerrit's replication may lag its events). */
    event_delay: numeric({ integer: false, min: 0 }).default(10),
    /** More changes than this in a change's dependency chain refuse it (unset: no limit). */
    max_dependencies: numeric({ integer: true, min: 0 }).optional(),
    /** Fetch over SSH (`ssh://user@ssh_server:port/project`) instead of HTTP(S). */
    git_over_ssh: flag.default(false),
    /** Seconds between looks for configuration changes (and branch heads). */
    poll_interval: numeric({ integer: false, min: 1 }).default(60),
    /**
     * Read missed (and, without `sshkey`, polled) events from Gerrit's events-log plugin:
     * `auto` asks it once and uses it when Gerrit has it (docs/gerrit.md#the-events-log-plugin).
     */
    events_log: eventsLogSetting.default('auto'),
  })
  .strict()
  .superRefine((c, ctx) => {
    if (c.auth_type === 'gcloud_service') {
      ctx.addIssue({
        code: 'custom',
        message:
          'auth_type "gcloud_service" is not supported by Sluice: it takes its tokens from the Google Cloud ' +
          'metadata server; use "basic", "digest" or "form" (docs/gerrit.md#not-done)',
        path: ['auth_type'],
      });
    }
    if (c.git_over_ssh && c.sshkey === undefined) {
      ctx.addIssue({ code: 'custom', message: 'git_over_ssh needs "sshkey"', path: ['git_over_ssh'] });
    }
    if (c.password === undefined) {
      ctx.addIssue({
        code: 'custom',
        message: 'give "password": Sluice reads changes and votes over the REST API as "user" (its HTTP password)',
        path: ['password'],
      });
    }
  });

export type GerritConnectionConfig = z.infer<typeof gerritConnection>;

/** The web base URL of a connection, without a trailing slash. */
export function gerritBaseUrl(settings: Pick<GerritConnectionConfig, 'baseurl' | 'server'>): string {
  return (settings.baseurl ?? `https://${settings.server}`).replace(/\/+$/, '');
}

/**
 * The URL git fetches a project from: `<baseurl>/a/<project>` with the HTTP password (Gerrit's
 * authenticated git over HTTP), or `ssh://<user>@<ssh_server>:<port>/<project>` with `git_over_ssh`.
 */
export function gerritGitUrl(settings: GerritConnectionConfig, project: string): string {
  if (settings.git_over_ssh) {
    return `ssh://${encodeURIComponent(settings.user)}@${settings.ssh_server ?? settings.server}:${settings.port}/${project}`;
  }
  const url = new URL(`${gerritBaseUrl(settings)}/a/${project}`);
  url.username = settings.user;
  url.password = settings.password ?? '';
  return url.toString();
}

/**
 * The environment git runs with for a connection's repositories: with `git_over_ssh`, OpenSSH
 * with the connection's key (src/sources/git-ssh.ts); empty over HTTP.
 */
export function gerritGitEnv(settings: GerritConnectionConfig, knownHosts: string): Record<string, string> {
  if (!settings.git_over_ssh || settings.sshkey === undefined) {
    return {};
  }
  return sshGitEnv(settings.sshkey, knownHosts);
}
