/**
 * `sluice validate-config`: the service configuration has already been parsed; this checks the
 * tenant file and reports every problem with its location. The Configuration issue extends it
 * to every project configuration reachable through the connections.
 */
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import type { ServiceConfig } from '../config/service';

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
  for (const doc of parseAllDocuments(text)) {
    if ('errors' in doc) {
      for (const e of doc.errors) {
        report.lines.push(`error: ${config.tenantConfig}: ${e.message.split('\n')[0]}`);
        report.errors++;
      }
    }
  }
  if (report.errors === 0) {
    report.lines.push(`tenant file ${config.tenantConfig}: ok`);
  }
  return report;
}
