/**
 * What an object parser needs to know about where it is: the tenant, the project-branch and
 * file being read, the file's pragma, and how to resolve project names. Warnings are collected
 * here because they do not drop the object.
 */
import type { ConfigObjectError, SourceContext } from './config-error';
import type { BranchMatcher, RegexSpec } from './regex';
import type { TenantConfig } from './tenant-file';
import type { TenantProjectConfig } from './tenant-sources';

export interface FilePragma {
  impliedBranchMatchers?: boolean;
  impliedBranches?: RegexSpec[];
}

export interface ResolvedProject {
  name: string;
  canonicalName: string;
  connectionName: string;
  trusted: boolean;
}

export interface ParseContext {
  tenant: TenantConfig;
  tpc: TenantProjectConfig;
  sourceContext: SourceContext;
  pragma: FilePragma;
  /** Number of branches loaded for the defining project. */
  projectBranchCount: number;
  /** Configured connections: name -> driver. */
  connections: Readonly<Record<string, string>>;
  /** Resolve a short or canonical project name in this tenant; throws "Project Not Found"/ambiguity errors. */
  resolveProject(name: string, attribute?: string): ResolvedProject;
  /** Warnings raised while parsing the current object. */
  warnings: ConfigObjectError[];
}

/**
 * The implied branch matcher for a top-level definition (engine.md §1.5): a pragma or the
 * TPC decides when set; otherwise none for config projects and single-branch projects.
 */
export function impliedBranchMatcher(ctx: ParseContext): BranchMatcher | undefined {
  let use: boolean;
  if (ctx.pragma.impliedBranchMatchers !== undefined) {
    use = ctx.pragma.impliedBranchMatchers;
  } else if (ctx.tpc.impliedBranchMatchers !== undefined) {
    use = ctx.tpc.impliedBranchMatchers;
  } else {
    use = !ctx.sourceContext.trusted && ctx.projectBranchCount > 1;
  }
  if (!use) {
    return undefined;
  }
  if (ctx.pragma.impliedBranches && ctx.pragma.impliedBranches.length > 0) {
    return { kind: 'explicit', regexes: ctx.pragma.impliedBranches };
  }
  return { kind: 'implied', regexes: [{ pattern: ctx.sourceContext.branch, negate: false }] };
}
