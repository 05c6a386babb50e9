/** `project` and `project-template` stanzas (docs/project-configuration.md#projects-and-templates). */
import { PROJECT_MERGE_MODES } from '../model/merge-modes';
import { ConfigObjectError, ErrorName } from './config-error';
import type { ProjectPipelineConfig, ProjectPipelineJob, ProjectStanza } from './layout';
import { impliedBranchMatcher, type ParseContext } from './parse-context';
import { parseJob } from './parse-job';
import { compileFullMatch, compileRegex, readRegexList, type BranchMatcher } from './regex';
import { checkKeys, optBool, optEnum, optMap, optString, optStrList, requireMap, toPlainData } from './schema-helpers';
import { isYamlMapping, keyLine } from './yaml-source';

const PROJECT_KEYS = new Set([
  'name',
  'description',
  'templates',
  'branches',
  'default-branch',
  'merge-mode',
  'vars',
  'queue',
]);
const TEMPLATE_KEYS = new Set(['name', 'description', 'queue', 'vars']);
const RESERVED_PROJECT_VARS = new Set(['zuul', 'nodepool', 'unsafe_vars']);

/** Parse a `project` stanza, resolving and authorizing the project it configures. */
export function parseProject(body: unknown, ctx: ParseContext, line: number): ProjectStanza {
  const map = body === null ? {} : requireMap(body, 'project');
  const written = optString(map, 'name');
  const own = ctx.sourceContext;
  let projectCanonicalName: string | undefined;
  let isRegex = false;
  let name = own.projectName;
  if (written !== undefined && written.startsWith('^')) {
    isRegex = true;
    name = written;
    compileRegex({ pattern: written, negate: false }, 'name');
    if (!own.trusted) {
      checkConfigureRegex(ctx);
    }
  } else if (written !== undefined) {
    const project = ctx.resolveProject(written, 'name');
    name = project.name;
    projectCanonicalName = project.canonicalName;
    if (!own.trusted && project.canonicalName !== own.projectCanonicalName) {
      authorizeOtherProject(ctx, project.name, project.canonicalName, project.trusted);
    }
  } else {
    projectCanonicalName = own.projectCanonicalName;
  }
  let branchMatcher: BranchMatcher | undefined;
  if (map.branches !== undefined && map.branches !== null) {
    const regexes = readRegexList(map.branches, 'branches');
    regexes.forEach((r) => compileRegex(r, 'branches'));
    branchMatcher = { kind: 'explicit', regexes };
  } else if (own.trusted) {
    branchMatcher = undefined;
  } else if (projectCanonicalName === own.projectCanonicalName) {
    branchMatcher = { kind: 'implied', regexes: [{ pattern: own.branch, negate: false }] };
  } else {
    branchMatcher = impliedBranchMatcher(ctx);
  }
  const stanza = readCommon(map, ctx, PROJECT_KEYS, 'project');
  const mergeMode = optEnum(map, 'merge-mode', PROJECT_MERGE_MODES);
  return {
    kind: 'project',
    name,
    projectCanonicalName,
    isRegex,
    sourceContext: own,
    line,
    branchMatcher,
    description: optString(map, 'description'),
    templates: optStrList(map, 'templates') ?? [],
    defaultBranch: optString(map, 'default-branch'),
    mergeMode,
    queue: optString(map, 'queue'),
    vars: stanza.vars,
    pipelines: stanza.pipelines,
  };
}

/** Parse a `project-template`; templates get implied branch matchers like jobs. */
export function parseProjectTemplate(body: unknown, ctx: ParseContext, line: number): ProjectStanza {
  const map = requireMap(body, 'project-template');
  const name = optString(map, 'name');
  if (name === undefined) {
    throw new ConfigObjectError(`required key not provided @ data['name']`, ErrorName.syntax, 'name');
  }
  const stanza = readCommon(map, ctx, TEMPLATE_KEYS, 'project-template');
  return {
    kind: 'project-template',
    name,
    isRegex: false,
    sourceContext: ctx.sourceContext,
    line,
    branchMatcher: impliedBranchMatcher(ctx),
    description: optString(map, 'description'),
    templates: [],
    queue: optString(map, 'queue'),
    vars: stanza.vars,
    pipelines: stanza.pipelines,
  };
}

function authorizeOtherProject(ctx: ParseContext, name: string, canonicalName: string, trusted: boolean): void {
  const allowed = ctx.tpc.configureProjects.some((pattern) => {
    const matches = compileFullMatch(pattern);
    return matches(name) || matches(canonicalName);
  });
  if (!allowed || trusted) {
    throw new ConfigObjectError(`Unable to modify project ${name}`, ErrorName.projectForbidden, 'name');
  }
}

function checkConfigureRegex(ctx: ParseContext): void {
  if (ctx.tpc.configureProjects.length === 0) {
    throw new ConfigObjectError(
      'Regex project stanzas may only be defined in config projects or projects with configure-projects',
      ErrorName.projectForbidden,
      'name',
    );
  }
}

function readCommon(
  map: Record<string, unknown>,
  ctx: ParseContext,
  fixedKeys: ReadonlySet<string>,
  kind: string,
): { vars: Record<string, unknown>; pipelines: Map<string, ProjectPipelineConfig> } {
  const vars = optMap(map, 'vars') ?? {};
  for (const key of Object.keys(vars)) {
    if (RESERVED_PROJECT_VARS.has(key)) {
      throw new ConfigObjectError(`Variable name "${key}" is not allowed.`, ErrorName.unknown, 'vars');
    }
  }
  const pipelines = new Map<string, ProjectPipelineConfig>();
  for (const [key, value] of Object.entries(map)) {
    if (fixedKeys.has(key)) {
      continue;
    }
    if (
      kind === 'project-template' &&
      (key === 'branches' || key === 'merge-mode' || key === 'default-branch' || key === 'templates')
    ) {
      throw new ConfigObjectError(`extra keys not allowed @ data['${key}']`, ErrorName.syntax, key);
    }
    pipelines.set(key, readProjectPipeline(value, ctx, key));
  }
  return { vars: toPlainData(vars) as Record<string, unknown>, pipelines };
}

function readProjectPipeline(value: unknown, ctx: ParseContext, pipeline: string): ProjectPipelineConfig {
  if (value === null || value === undefined) {
    return { jobs: [] };
  }
  if (!isYamlMapping(value)) {
    throw new ConfigObjectError(
      `expected a dictionary for dictionary value @ data['${pipeline}']`,
      ErrorName.syntax,
      pipeline,
    );
  }
  checkKeys(value, new Set(['jobs', 'debug', 'fail-fast', 'queue']), [], `data['${pipeline}']`);
  const jobs: ProjectPipelineJob[] = [];
  const rawJobs = value.jobs ?? [];
  if (!Array.isArray(rawJobs)) {
    throw new ConfigObjectError(
      `expected a list for dictionary value @ data['${pipeline}']['jobs']`,
      ErrorName.syntax,
      pipeline,
    );
  }
  for (const entry of rawJobs) {
    if (typeof entry === 'string') {
      jobs.push({ name: entry });
      continue;
    }
    if (!isYamlMapping(entry) || Object.keys(entry).length !== 1) {
      throw new ConfigObjectError(
        `expected a job name or a single-key dictionary @ data['${pipeline}']['jobs']`,
        ErrorName.syntax,
        pipeline,
      );
    }
    const [jobName] = Object.keys(entry);
    try {
      const variant = parseJob(entry[jobName], ctx, jobName);
      jobs.push({ name: jobName, variant: { ...variant, line: keyLine(entry, jobName) ?? 0 } });
    } catch (err) {
      if (err instanceof ConfigObjectError) {
        throw new ConfigObjectError(err.message, err.errorName, pipeline, err.severity);
      }
      throw err;
    }
  }
  return { jobs, debug: optBool(value, 'debug'), failFast: optBool(value, 'fail-fast') };
}
