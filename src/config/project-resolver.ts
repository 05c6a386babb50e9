/**
 * Project name resolution inside a tenant (short or canonical names, docs/project-configuration.md#the-tenant-file).
 */
import { ConfigObjectError, ErrorName } from './config-error';
import type { ResolvedProject } from './parse-context';

export class ProjectResolver {
  private readonly byCanonical = new Map<string, ResolvedProject>();
  private readonly byShort = new Map<string, ResolvedProject[]>();

  constructor(projects: Iterable<ResolvedProject>) {
    for (const p of projects) {
      this.byCanonical.set(p.canonicalName, p);
      const list = this.byShort.get(p.name) ?? [];
      list.push(p);
      this.byShort.set(p.name, list);
    }
  }

  /** Find a project; undefined when unknown, throws when a short name is ambiguous. */
  find(name: string): ResolvedProject | undefined {
    const canonical = this.byCanonical.get(name);
    if (canonical) {
      return canonical;
    }
    const short = this.byShort.get(name) ?? [];
    if (short.length > 1) {
      throw new ConfigObjectError(
        `Project name "${name}" is ambiguous, please fully qualify the project with a hostname. Valid hostnames are ${short.map((p) => p.canonicalName.split('/')[0]).join(', ')}.`,
        ErrorName.unknown,
      );
    }
    return short[0];
  }

  /** Resolve or throw "Project Not Found". */
  resolve(name: string, attribute?: string): ResolvedProject {
    let found: ResolvedProject | undefined;
    try {
      found = this.find(name);
    } catch (err) {
      if (err instanceof ConfigObjectError) {
        throw new ConfigObjectError(err.message, err.errorName, attribute);
      }
      throw err;
    }
    if (found === undefined) {
      throw new ConfigObjectError(`The project "${name}" was not found.`, ErrorName.projectNotFound, attribute);
    }
    return found;
  }

  all(): ResolvedProject[] {
    return [...this.byCanonical.values()];
  }
}
