/**
 * What the notification reporters (SMTP mail, MQTT messages; docs/reporters.md) say of an item
 * report: its text, the change's short project name and label, and `{name}` substitutions in
 * the templates of their options (a mail's subject, a topic).
 */
import type { ItemReport } from '../engine/ports/reporter';
import type { ChangeInfo } from '../model/changes';

/** The report's text: the start report carries the pipeline's start message. */
export function reportText(report: ItemReport): string {
  return report.message !== '' ? report.message : report.phase === 'start' ? (report.startMessage ?? '') : '';
}

/** A canonical project name (`<host>/<project>`) without its host. */
export function shortProjectName(canonicalName: string): string {
  const slash = canonicalName.indexOf('/');
  return slash < 0 ? canonicalName : canonicalName.slice(slash + 1);
}

/** `<number>,<patchset>` of a change, else its ref (the reference's way of naming a change). */
export function changeLabel(change: ChangeInfo): string {
  return change.number !== null ? `${change.number},${change.patchset ?? ''}` : change.ref;
}

/** The values `{name}` may name in a template of a report. */
export function reportFields(report: ItemReport): Record<string, string> {
  const change = report.change;
  return {
    tenant: report.tenant,
    pipeline: report.pipeline,
    'pipeline.name': report.pipeline,
    project: shortProjectName(change.project),
    branch: change.branch ?? '',
    change: change.number !== null ? String(change.number) : '',
    patchset: change.patchset ?? '',
    ref: change.ref,
    'change.number': change.number !== null ? String(change.number) : '',
    'change.patchset': change.patchset ?? '',
    'change.project': shortProjectName(change.project),
    'change.branch': change.branch ?? '',
    'change.ref': change.ref,
    'change.url': change.url ?? '',
  };
}

/** Fill `{name}` in `template` from `fields`; names it does not know stay as written. */
export function fillTemplate(template: string, fields: Record<string, string>): string {
  return template.replace(/\{([A-Za-z_.]+)\}/g, (whole, name: string) => fields[name] ?? whole);
}
