/**
 * The fake Gerrit's labels and submit requirements (docs/gerrit.md#submit-requirements): each
 * label's range, who approved it (voted its highest value) and whether it blocks (its lowest value
 * voted), the submit requirements a test sets (`label:<L>=MAX AND -label:<L>=MIN`, as Gerrit's
 * defaults are written) and `submittable`, as Gerrit's REST API answers them.
 */
import type { Account, FakeChange } from './model';

/** Ranges of the labels tests vote (the reference's test labels, and `Workflow`); others are -1..+1. */
export const LABEL_RANGES: Record<string, [number, number]> = {
  Approved: [-1, 1],
  'Code-Review': [-2, 2],
  Verified: [-2, 2],
  Workflow: [-1, 1],
};

/** A submit requirement on one label: satisfied by its highest value and no lowest one. */
export interface FakeSubmitRequirement {
  name: string;
  label: string;
}

export interface LabelSettings {
  /** Labels listed even without votes (Gerrit lists every label of the project). */
  listed: string[];
  /** Labels listed as optional (neither needed nor blocking). */
  optional: string[];
  requirements: FakeSubmitRequirement[];
  /**
   * Labels a legacy submit rule (a prolog rule, a plugin's rule) needs, not listed as labels:
   * answered as `submit_records`, each label `OK` with a vote of its highest value, `REJECT` with
   * one of its lowest, `NEED` otherwise.
   */
  rules: string[];
}

function range(label: string): [number, number] {
  return LABEL_RANGES[label] ?? [-1, 1];
}

/** `labels` with `DETAILED_LABELS`: each label's votes, `approved`, `rejected`, `blocking`, `optional`. */
export function labelsJson(change: FakeChange, settings: LabelSettings): Record<string, Record<string, unknown>> {
  const labels: Record<string, Record<string, unknown> & { all: unknown[] }> = {};
  for (const name of settings.listed) {
    labels[name] = { all: [] };
  }
  for (const vote of change.votes) {
    const label = (labels[vote.label] ??= { all: [] });
    label.all.push({ ...vote.by, value: vote.value, date: vote.date });
    const [min, max] = range(vote.label);
    if (vote.value === max) {
      label.approved ??= vote.by;
    }
    if (vote.value === min) {
      label.rejected ??= vote.by;
      label.blocking = true;
    }
  }
  for (const name of settings.optional) {
    if (labels[name]) {
      labels[name].optional = true;
    }
  }
  return labels;
}

function satisfied(change: FakeChange, requirement: FakeSubmitRequirement): boolean {
  const [min, max] = range(requirement.label);
  const votes = change.votes.filter((vote) => vote.label === requirement.label);
  return votes.some((vote) => vote.value === max) && !votes.some((vote) => vote.value === min);
}

/** `submit_requirements` with `SUBMIT_REQUIREMENTS`. */
export function submitRequirementsJson(change: FakeChange, settings: LabelSettings): unknown[] {
  return settings.requirements.map((requirement) => ({
    name: requirement.name,
    status: satisfied(change, requirement) ? 'SATISFIED' : 'UNSATISFIED',
    is_legacy: false,
    submittability_expression_result: {
      expression: `label:${requirement.label}=MAX AND -label:${requirement.label}=MIN`,
      fulfilled: satisfied(change, requirement),
    },
  }));
}

function ruleStatus(change: FakeChange, label: string): 'OK' | 'REJECT' | 'NEED' {
  const [min, max] = range(label);
  const votes = change.votes.filter((vote) => vote.label === label);
  return votes.some((v) => v.value === min) ? 'REJECT' : votes.some((v) => v.value === max) ? 'OK' : 'NEED';
}

/** `submit_records`: the legacy rule's record, when a test set rules. */
export function submitRecordsJson(change: FakeChange, settings: LabelSettings): unknown[] {
  const labels = settings.rules.map((label) => ({ label, status: ruleStatus(change, label) }));
  const ready = labels.every((label) => label.status === 'OK');
  return [{ rule_name: 'gerrit~PrologRule', status: ready ? 'OK' : 'NOT_READY', labels }];
}

/** Why Gerrit would refuse to submit the change now, or null (`submittable`). */
export function submitRefusal(change: FakeChange, settings: LabelSettings): string | null {
  if (change.status !== 'NEW') {
    return `change is ${change.status.toLowerCase()}`;
  }
  if (change.wip) {
    return 'change is work in progress';
  }
  const unmet = settings.requirements.find((requirement) => !satisfied(change, requirement));
  if (unmet !== undefined) {
    return `submit requirement '${unmet.name}' is unsatisfied`;
  }
  const needed = settings.rules.find((label) => ruleStatus(change, label) !== 'OK');
  if (needed !== undefined) {
    return `submit rule needs ${needed}`;
  }
  const blocked = change.votes.find((vote) => vote.value === range(vote.label)[0] && vote.value < 0);
  return blocked === undefined ? null : `${blocked.label} is blocked by ${(blocked.by as Account).username}`;
}
