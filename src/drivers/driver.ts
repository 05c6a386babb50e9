/**
 * The `Driver` interface (docs/development.md#drivers): everything one driver (git, github,
 * timer, zuul; gerrit, gitlab, smtp, mqtt to come) brings, in one folder `src/drivers/<name>/`,
 * registered in src/drivers/registry.ts. The configuration loader and the engine ask the
 * registry and never name a driver; the gating roles (src/server/roles.ts) run each driver's
 * runtime for its configured connections.
 */
import type Koa from 'koa';
import type { Knex } from 'knex';
import type { z } from 'zod';
import type { ChangeSource } from '../engine/ports/change-source';
import type { TimerClock } from '../engine/ports/clock';
import type { ChangeRequirement, PipelineTrigger, ReporterAction } from '../engine/ports/layout';
import type { MergerGateway } from '../engine/ports/merger';
import type { ChangeReporter } from '../engine/ports/reporter';
import type { MergeItem } from '../model/changes';
import type { ChangeOfUrl, NamedChange } from './depends-on';
import type { TriggerEvent } from '../model/engine-events';
import type { RefUrlTemplates } from '../model/ref-url-templates';
import type { RoleName } from '../model/roles';
import type { GitConnection } from '../sources/git-connection';
import type { GitMirrors } from '../sources/git-mirror';
import type { GitProjects, RepositoryAccess } from '../sources/git-projects';

/** What every connection's settings have: the name of its driver. */
export interface ConnectionSettings {
  driver: string;
}

/** What a file a connection names must hold: anything readable, an RSA private key in PEM, a secret. */
export type ConnectionFileKind = 'readable' | 'rsa-private-key' | 'secret';

/** Options of a trigger filter, reporter or requirement as written in the configuration. */
export type OptionMap = Record<string, unknown>;

/**
 * Readers of configuration options, given by the configuration loader: each one throws the
 * loader's configuration error (with the reference's voluptuous-style message) on bad input.
 */
export interface OptionReaders {
  /** Refuse keys outside `allowed` and require `required`; `where` prefixes messages (`data['trigger']`). */
  keys(map: OptionMap, allowed: readonly string[], required: readonly string[], where: string): void;
  /** An optional boolean. */
  bool(map: OptionMap, key: string): boolean | undefined;
  /** A string or list of strings. */
  strings(value: unknown, key: string): string[];
  /** An optional string or list of strings. */
  optStrings(map: OptionMap, key: string): string[] | undefined;
  /**
   * `str`, `{regex, negate}` or a list of either: each must compile; one RE2 lacks adds a `Regex
   * Deprecation` warning.
   */
  regexes(value: unknown): void;
  /** Patterns a driver compiles itself: a `Regex Deprecation` warning for each one RE2 lacks. */
  deprecatedRegexes(patterns: readonly string[]): void;
  /** A warning (the object still loads) of the reference's name `name`. */
  warn(name: string, message: string): void;
  /** A configuration error with this message. */
  fail(message: string): never;
}

/** Trigger filters of a driver's connections (a pipeline's `trigger: {<connection>: [...]}`). */
export interface TriggerRules {
  validate(filter: OptionMap, read: OptionReaders, attribute: string): void;
  /** The engine's form of a valid filter. */
  compile(filter: OptionMap, connection: string): PipelineTrigger;
}

/** A pipeline reporter of a driver's connection (`success: {<connection>: {...}}`). */
export interface ReporterRules {
  validate(options: OptionMap, read: OptionReaders, attribute: string): void;
  /** What the engine itself acts on. */
  compile(options: OptionMap): ReporterAction;
}

/** A pipeline `require` / `reject` entry of a driver's connection. */
export interface RequirementRules {
  validate(options: OptionMap, read: OptionReaders, attribute: string): void;
  compile(options: OptionMap, mode: 'require' | 'reject'): Omit<ChangeRequirement, 'connection'>;
}

/** The service configuration side of a driver's connections (`connections.<name>`, docs/configuration.md#keys). */
/** The public facts of a source connection, as the reference's connection listing gives them. */
export interface ConnectionPublicInfo {
  /** Where its repositories (git), REST API (Gerrit, GitLab) or API (GitHub) are found. */
  baseurl: string;
  canonicalHostname: string;
  /** The server's host name (Gerrit, GitHub, GitLab). */
  server?: string;
  /** The host of Gerrit's SSH (event stream, git over SSH). */
  sshServer?: string;
  /** Gerrit's SSH port. */
  port?: number;
}

export interface ConnectionSpec<S extends ConnectionSettings> {
  /** The settings' schema: a strict object whose `driver` is the driver's name. */
  schema: z.ZodType<S>;
  /**
   * The files its settings name, each checked at load for what it must hold
   * (docs/configuration.md#files-the-configuration-names); `key` is the settings' key.
   */
  files?(settings: S): Array<{ key: string; file: string | undefined; kind: ConnectionFileKind }>;
  /** Make the file paths among the settings absolute (`resolve` resolves against the configuration file's folder). */
  resolvePaths?(settings: S, resolve: (file: string) => string): void;
  /** Host part of its projects' canonical names (`<host>/<project>`). */
  canonicalHostname(name: string, settings: S): string;
  /** Seconds between looks for configuration changes it asks for (the layout manager uses the shortest). */
  pollInterval?(settings: S): number;
  /** Its URL templates of changes and refs (docs/configuration.md#ref-url-templates); absent: links go to the dashboard. */
  refUrls?(settings: S): RefUrlTemplates & { baseurl?: string };
  /**
   * What `/api/connections` and GraphQL's `connections` say of it (docs/rest.md#components-and-connections);
   * absent: the connection has no source and is not listed (timer, SMTP, MQTT).
   */
  publicInfo?(name: string, settings: S): ConnectionPublicInfo;
  /**
   * The change a URL names when the URL is one of this connection's (a `Depends-On:` line of any
   * driver's change, src/drivers/depends-on.ts): its canonical project and number; null otherwise.
   */
  changeOfUrl?(name: string, settings: S, url: URL): NamedChange | null;
  /** The git repositories its projects' configuration is read from; absent: its connections serve no projects. */
  configRepositories?(name: string, settings: S, cacheDir: string): GitConnection;
}

export interface DriverLog {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown> | string, message?: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

/** Where a driver's runtime writes the trigger events it makes (the engine's durable events). */
export interface TriggerSink {
  /** Write a trigger event in the caller's transaction; wake the tenant after the commit. */
  record(tenant: string, event: TriggerEvent, trx: Knex): Promise<void>;
  wake(tenant: string): void;
}

/** What a driver's runtime is given by the process that runs it. */
export interface DriverContext<S extends ConnectionSettings> {
  /** The driver's configured connections, by name. */
  connections: ReadonlyMap<string, S>;
  dataDir: string;
  knex: Knex;
  projects: GitProjects & {
    /** Short names of a connection's projects in any loaded tenant. */
    projectsOf(connection: string): string[];
    /** The trigger filters of a connection in the pipelines of every loaded tenant. */
    triggerFiltersOf(connection: string): Array<Record<string, unknown>>;
    /** Tenants whose layout has the project. */
    tenantsOf(canonicalName: string): string[];
    /** The branches a tenant loaded of a project that loads protected branches only, else undefined. */
    protectedBranchesOf(tenant: string, canonicalName: string): readonly string[] | undefined;
  };
  triggers: TriggerSink;
  /** The change a `Depends-On:` URL names on any configured connection (every driver's), or null. */
  changeOfUrl: ChangeOfUrl;
  /** The dashboard page of a buildset (for links in reports). */
  buildsetUrl(tenant: string, uuid: string): string;
  now(): Date;
  /**
   * The timers of the drivers' own polls and waits (Gerrit's pending checks, the waits between
   * Gerrit and GitHub report retries and GitLab request retries, GitHub's and GitLab's rate
   * limits); default: the system clock.
   */
  timers?: TimerClock;
  /**
   * Reload these tenants' layouts now, without waiting for the configuration poll (a repository's
   * branch protection changed, docs/github.md#branch-protection-changes). Does not wait.
   */
  reloadTenants?(tenants: readonly string[]): void;
  /**
   * The mirrors of this process's git merger (its executor cache), read by the change source
   * instead of mirrors of its own: one fetch of a new change serves both (docs/operations.md#git-work-per-change).
   * Called once the roles are built; without it the driver keeps its own mirrors.
   */
  gitMirrors?(): GitMirrors;
  log: DriverLog;
}

/** Background work of a driver, run by the processes that run `role`. */
export interface DriverTask {
  name: string;
  role: RoleName;
  /** May resolve once the task is ready: the process listens only after that (a git poller's baselines). */
  start(): void | Promise<void>;
  stop(): Promise<void>;
}

/** A driver's part of the gating roles, for all its connections. */
export interface DriverRuntime {
  /** Changes and refs of its connections' projects. */
  changes?: ChangeSource;
  /**
   * Merges a change of its connections into its branch itself; null leaves it to the shared git
   * merger (src/executor/merger-gateway.ts over src/sources/), which also merges when this is absent.
   */
  mergeToBranch?(item: MergeItem): Promise<Awaited<ReturnType<MergerGateway['mergeToBranch']>> | null>;
  /**
   * Whether `mergeToBranch` would merge the change now, asked of every change of a cycle before
   * any is merged (docs/gating.md#dependency-cycles); null: it cannot tell.
   */
  canMergeToBranch?(item: MergeItem): ReturnType<NonNullable<MergerGateway['canMergeToBranch']>>;
  /** The shared git merger pushed a merge to a branch of one of its connections' projects. */
  merged?(connection: string, project: string, branch: string, newrev: string, oldrev: string): void;
  /** Reports to its connections. */
  reporter?: ChangeReporter;
  /** How the executor reaches its connections' repositories, by connection (when the service configuration does not say). */
  repositories?: ReadonlyMap<string, RepositoryAccess>;
  tasks: DriverTask[];
  /** Something was received for it (a webhook delivery stored by this or another process): look now. */
  wake?(): void;
  /** Resolves when nothing it received waits to become trigger events (tests, shutdown). */
  idle?(): Promise<void>;
}

/** What the API role gives a driver's webhook receiver. */
export interface WebhookContext<S extends ConnectionSettings> {
  connections: ReadonlyMap<string, S>;
  knex: Knex;
  now(): Date;
  /** A delivery was stored: the runtime's intake may look now. */
  onStored(): void;
}

/** A webhook delivery refused: its status and the JSON error body `{error, description}`. */
export interface WebhookRefusal {
  status: number;
  error: string;
  description: string;
}

/**
 * Webhook deliveries to a driver's connections. src/server/connection-webhooks.ts checks the path,
 * the method and the connection, asks `refuseEarly`, then reads the body under its limits (size,
 * deliveries read at once, bytes held; docs/github.md#webhooks) and hands it to `receive`.
 */
export interface WebhookReceiver {
  /**
   * Checks of the headers made before any of the body is read (no signature, no delivery id), so
   * an unsigned body is never buffered: a refusal, or null to read the body.
   */
  refuseEarly(ctx: Koa.Context, connection: string): WebhookRefusal | null;
  /** Answer one `POST /api/connection/{connection}/payload` with its body: check it, store it. */
  receive(ctx: Koa.Context, connection: string, body: Buffer): Promise<void>;
}

/**
 * One driver. Methods (not function properties) so a driver of specific settings is a
 * `Driver` of any settings in the registry's list; the registry hands each one only settings
 * its schema accepted.
 */
export interface Driver<S extends ConnectionSettings = ConnectionSettings> {
  name: string;
  /** Its connections in the service configuration; absent: it has none. */
  connection?: ConnectionSpec<S>;
  /** Pipelines may name it as a trigger or reporter without a configured connection (timer, zuul). */
  implicit?: boolean;
  triggers?: TriggerRules;
  reporters?: ReporterRules;
  requirements?: RequirementRules;
  /** Its part of the gating roles (built in every process that has tenants; tasks run per role). */
  runtime?(context: DriverContext<S>): DriverRuntime;
  /** Its webhook deliveries (`POST /api/connection/{name}/payload`), served by the API role. */
  webhooks?(context: WebhookContext<S>): WebhookReceiver;
}
