/**
 * `configure-projects` may never name a config project (docs/project-configuration.md#the-tenant-file).
 * The reference refuses to load such a tenant; Sluice keeps loading it (a bad object never stops
 * a tenant), reports the error and drops that project's `configure-projects`, so it configures
 * no project but itself.
 */
import { buildConfigError, ErrorName, type ConfigError } from './config-error';
import type { LoadedProject } from './layout-collect';
import { compileFullMatch } from './regex';

export function checkConfigureProjects(projects: readonly LoadedProject[]): {
  projects: LoadedProject[];
  errors: ConfigError[];
} {
  const configProjects = projects.filter((p) => p.trusted);
  const errors: ConfigError[] = [];
  const checked = projects.map((project) => {
    if (project.trusted || project.tpc.configureProjects.length === 0) {
      return project;
    }
    const patterns = project.tpc.configureProjects.map((pattern) => compileFullMatch(pattern));
    const named = configProjects.find((c) => patterns.some((matches) => matches(c.name) || matches(c.canonicalName)));
    if (named === undefined) {
      return project;
    }
    const where = project.tpc.line !== undefined ? ` (tenant file line ${project.tpc.line})` : '';
    errors.push(
      buildConfigError({
        shortError: `Untrusted-project ${project.name} may not configure config-project ${named.name}; its configure-projects is ignored${where}`,
        name: ErrorName.unknown,
        severity: 'error',
        location: {},
      }),
    );
    return { ...project, tpc: { ...project.tpc, configureProjects: [] } };
  });
  return { projects: checked, errors };
}
