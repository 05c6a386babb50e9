/**
 * A fake Gerrit change (test/helpers/fake-gerrit/model.ts) as Gerrit's REST API answers it with
 * `ALL_REVISIONS`, `ALL_COMMITS`, `DETAILED_LABELS`, `DETAILED_ACCOUNTS` and `MESSAGES`, and with
 * `SUBMITTABLE` and `SUBMIT_REQUIREMENTS` where asked.
 */
import { labelsJson, submitRecordsJson, submitRefusal, submitRequirementsJson, type LabelSettings } from './labels';
import type { FakeChange } from './model';

export function changeJson(change: FakeChange, labels: LabelSettings, options: string[] = []): Record<string, unknown> {
  return {
    id: `${encodeURIComponent(change.project)}~${change.number}`,
    project: change.project,
    branch: change.branch,
    change_id: change.changeId,
    subject: change.subject,
    status: change.status,
    hashtags: change.hashtags ?? [],
    ...(change.topic === undefined ? {} : { topic: change.topic }),
    _number: change.number,
    owner: change.owner,
    updated: change.updated,
    ...(change.submitted === undefined ? {} : { submitted: change.submitted }),
    current_revision: change.patchsets.at(-1)?.revision,
    revisions: Object.fromEntries(
      change.patchsets.map((p) => [
        p.revision,
        {
          _number: p.number,
          ref: p.ref,
          created: p.created,
          uploader: change.owner,
          commit: { message: p.message, parents: [{ commit: p.parent }] },
        },
      ]),
    ),
    labels: labelsJson(change, labels),
    messages: change.messages,
    ...(change.wip ? { work_in_progress: true } : {}),
    ...(options.includes('SUBMITTABLE') ? { submittable: submitRefusal(change, labels) === null } : {}),
    ...(options.includes('SUBMIT_REQUIREMENTS') ? { submit_requirements: submitRequirementsJson(change, labels) } : {}),
    ...(labels.rules.length > 0 ? { submit_records: submitRecordsJson(change, labels) } : {}),
  };
}
