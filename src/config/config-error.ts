/**
 * Configuration errors (docs/project-configuration.md#config-errors): one record per problem found while loading a
 * tenant, with the reference's message layout, a short message, a severity, an error class name and
 * a key hash used to de-duplicate records.
 */
import { createHash } from 'node:crypto';

export type ConfigErrorSeverity = 'error' | 'warning';

/** Where a configuration object came from. */
export interface SourceContext {
  projectCanonicalName: string;
  projectName: string;
  connectionName: string;
  branch: string;
  path: string;
  trusted: boolean;
}

/** The position of an object inside its file (1-based lines). */
export interface SourceMark {
  line: number;
  endLine: number;
  snippet: string;
}

export interface ConfigError {
  severity: ConfigErrorSeverity;
  /** Error class name, e.g. `Unknown Configuration Error`, `Nodeset Not Found`. */
  name: string;
  /** The full human-readable message. */
  error: string;
  /** The bare error text. */
  shortError: string;
  /** Absent for errors not tied to a repository (e.g. a tenant-file problem). */
  sourceContext?: Pick<SourceContext, 'projectCanonicalName' | 'projectName' | 'connectionName'> &
    Partial<Pick<SourceContext, 'branch' | 'path'>>;
  /** Line of the offending object or attribute, when known. */
  line?: number;
  keyHash: string;
}

/** Well-known error class names (the reference's names where it has one). */
export const ErrorName = {
  syntax: 'Unknown Configuration Error',
  unknown: 'Unknown',
  syntaxWarning: 'Unknown Configuration Warning',
  multipleProjectConfigurations: 'Multiple Project Configurations',
  regexDeprecation: 'Regex Deprecation',
  cleanupRunDeprecation: 'Cleanup Run Deprecation',
  nodeFromGroupNotFound: 'Node From Group Not Found',
  duplicateNode: 'Duplicate Node',
  duplicateGroup: 'Duplicate Nodeset Group',
  unknownConnection: 'Unknown Connection',
  labelForbidden: 'Label Forbidden',
  labelNotFound: 'Label Not Found',
  maxTimeout: 'Max Timeout Exceeded',
  preTimeoutExceedsTimeout: 'Pre-Timeout Exceeds Timeout',
  maxOidcTtl: 'Max OIDC TTL Exceeded',
  oidcIssuerNotAllowed: 'OIDC issuer not allowed',
  projectNotFound: 'Project Not Found',
  templateNotFound: 'Template Not Found',
  nodesetNotFound: 'Nodeset Not Found',
  pipelineForbidden: 'Pipeline Forbidden',
  projectForbidden: 'Project Forbidden',
  globalSemaphoreNotFound: 'Global Semaphore Not Found',
  jobNotFound: 'Job Not Found',
} as const;

/**
 * Thrown by object parsers for one bad object; the loader turns it into a ConfigError and drops
 * the object. `attribute` names the offending key when known.
 */
export class ConfigObjectError extends Error {
  constructor(
    message: string,
    readonly errorName: string = ErrorName.unknown,
    readonly attribute?: string,
    readonly severity: ConfigErrorSeverity = 'error',
  ) {
    super(message);
    this.name = 'ConfigObjectError';
  }
}

/** What an error is about: the stanza kind/name and where it was written. */
export interface ErrorLocation {
  context?: SourceContext;
  mark?: SourceMark;
  stanza?: { kind: string; name?: string };
  attribute?: string;
  /** Line of the attribute when known (overrides the mark's first line). */
  attributeLine?: number;
}

interface BuildErrorInput {
  shortError: string;
  name: string;
  severity: ConfigErrorSeverity;
  location: ErrorLocation;
}

/** Build an error record with the reference's message layout. */
export function buildConfigError(input: BuildErrorInput): ConfigError {
  const { location } = input;
  const context = location.context;
  const line = location.attributeLine ?? location.mark?.line;
  const message = formatMessage(input);
  const sourceContext = context
    ? {
        projectCanonicalName: context.projectCanonicalName,
        projectName: context.projectName,
        connectionName: context.connectionName,
        branch: context.branch,
        path: context.path,
      }
    : undefined;
  const keyHash = createHash('sha256')
    .update(
      JSON.stringify([
        context?.projectCanonicalName ?? null,
        context?.branch ?? null,
        context?.path ?? null,
        line ?? null,
        location.mark?.snippet ?? null,
        input.shortError,
      ]),
    )
    .digest('hex');
  return {
    severity: input.severity,
    name: input.name,
    error: message,
    shortError: input.shortError,
    sourceContext,
    line,
    keyHash,
  };
}

/** An error about a repository as a whole (it could not be read). */
export function buildRepositoryError(
  project: { canonicalName: string; name: string; connectionName: string },
  text: string,
): ConfigError {
  const message = `Zuul encountered an error while accessing the repo ${project.name}.  The error was:\n\n${indent(text)}\n`;
  const keyHash = createHash('sha256')
    .update(JSON.stringify([project.canonicalName, null, null, null, null, text]))
    .digest('hex');
  return {
    severity: 'error',
    name: ErrorName.unknown,
    error: message,
    shortError: text,
    sourceContext: {
      projectCanonicalName: project.canonicalName,
      projectName: project.name,
      connectionName: project.connectionName,
    },
    keyHash,
  };
}

function formatMessage(input: BuildErrorInput): string {
  const { location, severity, name } = input;
  const context = location.context;
  // The reference's deprecations (and its generic syntax warning) say "deprecated syntax".
  const deprecation =
    name === ErrorName.syntaxWarning ||
    name.endsWith(' Deprecation') ||
    name === 'Github Trigger Configuration Warning';
  const problem =
    severity === 'warning'
      ? deprecation
        ? 'deprecated syntax'
        : 'configuration warning'
      : name === ErrorName.syntax
        ? 'syntax error'
        : 'configuration error';
  let intro: string;
  if (context) {
    intro = `Zuul encountered a ${problem} while parsing its configuration in the repo ${context.projectName} on branch ${context.branch}.  The problem was:`;
  } else {
    intro = 'Zuul encountered an error:';
  }
  const parts = [intro, '', indent(input.shortError), ''];
  if (location.stanza && location.mark) {
    const what =
      location.stanza.name !== undefined
        ? `the "${location.stanza.name}" ${location.stanza.kind} stanza`
        : `a ${location.stanza.kind} stanza`;
    parts.push(
      location.attribute
        ? `The problem appears in the "${location.attribute}" attribute of ${what}:`
        : `The problem appears in ${what}:`,
    );
    parts.push('', indent(snippetAround(location.mark, location.attributeLine)), '');
    parts.push(`  in "${context?.path ?? '?'}", line ${location.attributeLine ?? location.mark.line}`);
  }
  return parts.join('\n');
}

/** Up to 9 lines of the object, starting a little before the offending line. */
function snippetAround(mark: SourceMark, focusLine: number | undefined): string {
  const lines = mark.snippet.split('\n');
  const focus = focusLine !== undefined ? Math.max(0, focusLine - mark.line) : 0;
  const start = Math.max(0, focus - 4);
  return lines.slice(start, start + 9).join('\n');
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => (l.length > 0 ? `  ${l}` : l))
    .join('\n');
}

/** Collects errors while a tenant loads; de-duplicates by key hash and keeps insertion order. */
export class ErrorCollector {
  private readonly byHash = new Map<string, ConfigError>();

  add(error: ConfigError): void {
    if (!this.byHash.has(error.keyHash)) {
      this.byHash.set(error.keyHash, error);
    }
  }

  /** Record a problem with an object at a location. */
  report(
    location: ErrorLocation,
    shortError: string,
    name: string = ErrorName.unknown,
    severity: ConfigErrorSeverity = 'error',
  ): void {
    this.add(buildConfigError({ location, shortError, name, severity }));
  }

  /** Record a ConfigObjectError (or any exception) raised while handling an object. */
  reportException(location: ErrorLocation, err: unknown, attributeLines?: Record<string, number>): void {
    if (err instanceof ConfigObjectError) {
      const attributeLine = err.attribute !== undefined ? attributeLines?.[err.attribute] : undefined;
      this.report(
        {
          ...location,
          attribute: err.attribute ?? location.attribute,
          attributeLine: attributeLine ?? location.attributeLine,
        },
        err.message,
        err.errorName,
        err.severity,
      );
      return;
    }
    this.report(location, err instanceof Error ? err.message : String(err), ErrorName.unknown);
  }

  list(): ConfigError[] {
    return [...this.byHash.values()];
  }
}
