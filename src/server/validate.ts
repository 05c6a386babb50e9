/**
 * `sluice validate-config`: the service configuration has already been parsed; this loads the
 * tenant file and every tenant's project configuration reachable through the connections and
 * reports each problem with its severity, error name and location.
 */
import { readFileSync } from 'node:fs';
import type { ServiceConfig } from '../config/service';
import type { ConfigError } from '../config/config-error';
import { connectionsFromConfig, loadTenantLayout, readTenantFile } from '../config/load-tenants';
import { seedRepositories } from '../sources/git-seed';

export interface ValidationReport {
  lines: string[];
  errors: number;
  warnings: number;
}

export async function validateDeployment(config: ServiceConfig): Promise<ValidationReport> {
  const report: ValidationReport = { lines: [`service configuration ${config.source ?? '(defaults)'}: ok`], errors: 0, warnings: 0 };
  if (config.tenantConfig === undefined) {
    report.lines.push('warning: no tenantConfig is set; the service will have no tenants');
    report.warnings++;
    return report;
  }
  let text: string;
  try {
    text = readFileSync(config.tenantConfig, 'utf8');
  } catch (err) {
    report.lines.push(`error: ${config.tenantConfig}: cannot read the tenant file (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
    report.errors++;
    return report;
  }
  // Seeded repositories are what the service would read, so create them as `serve` does.
  for (const conn of Object.values(config.connections)) {
    if (conn.driver === 'git' && conn.seedFrom !== undefined) {
      await seedRepositories(conn.seedFrom, conn.baseurl);
    }
  }
  const connections = connectionsFromConfig(config);
  const { abide, problems } = readTenantFile(text, connections);
  for (const p of problems.filter((x) => x.tenant === undefined)) {
    report.lines.push(`error: ${config.tenantConfig}${p.line !== undefined ? `:${p.line}` : ''}: ${p.message}`);
    report.errors++;
  }
  if (problems.length === 0) {
    report.lines.push(`tenant file ${config.tenantConfig}: ok`);
  }
  for (const tenant of abide.tenants) {
    const layout = await loadTenantLayout(tenant, abide, problems, connections);
    const errors = layout.errors.filter((e) => e.severity === 'error').length;
    report.lines.push(
      `tenant ${tenant.name}: ${layout.projects.size} project(s), ${layout.pipelines.size} pipeline(s), ${layout.jobs.size} job(s), ${errors} error(s), ${layout.errors.length - errors} warning(s)`,
    );
    for (const e of layout.errors) {
      report.lines.push(describeError(tenant.name, e));
      if (e.severity === 'error') {
        report.errors++;
      } else {
        report.warnings++;
      }
    }
  }
  return report;
}

function describeError(tenant: string, e: ConfigError): string {
  const c = e.sourceContext;
  const where = c === undefined ? `tenant ${tenant}` : `${c.projectName}${c.branch !== undefined ? `@${c.branch}` : ''}${c.path !== undefined ? ` ${c.path}` : ''}${e.line !== undefined ? `:${e.line}` : ''}`;
  return `${e.severity}: [${e.name}] ${where}: ${e.shortError}`;
}
