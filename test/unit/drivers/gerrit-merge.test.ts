/**
 * Whether Gerrit would merge a change, judged as the reference judges it
 * (docs/gerrit.md#submit-requirements): work in progress, missing labels and unsatisfied submit
 * requirements, with the labels the pipeline votes allowed; and which Gerrit versions answer
 * `SUBMIT_REQUIREMENTS`.
 */
import { gerritState } from '../../../src/drivers/gerrit/change-source';
import { hasSubmitRequirements, type ChangeJson } from '../../../src/drivers/gerrit/client';
import { gerritMergeRefusal } from '../../../src/model/changes';

function change(extra: Partial<ChangeJson>): ChangeJson {
  return { project: 'org/app', branch: 'master', change_id: 'I1', subject: 's', status: 'NEW', _number: 1, ...extra };
}

const CODE_REVIEW = 'label:Code-Review=MAX AND -label:Code-Review=MIN';
const VERIFIED = 'label:Verified=MAX AND -label:Verified=MIN';

describe('gerritMergeRefusal', () => {
  it('refuses work in progress', () => {
    expect(gerritMergeRefusal(gerritState(change({ work_in_progress: true })), [])).toBe('work in progress flag');
  });

  it('reads labels as missing unless approved or optional, a blocking one always', () => {
    const state = gerritState(
      change({
        labels: {
          'Code-Review': { approved: { username: 'core' } },
          Verified: {},
          Lint: { optional: true },
          Legal: { approved: { username: 'a' }, blocking: true },
        },
      }),
    );
    expect(state.missingLabels).toEqual(['Verified', 'Legal']);
    expect(gerritMergeRefusal(state, ['Verified'])).toBe('missing labels: Legal');
    expect(gerritMergeRefusal(state, ['Verified', 'Legal'])).toBeNull();
  });

  it('refuses an unsatisfied submit requirement unless its expression names a label the pipeline votes', () => {
    const state = gerritState(
      change({
        submit_requirements: [
          { name: 'Code-Review', status: 'SATISFIED', submittability_expression_result: { expression: CODE_REVIEW } },
          { name: 'Verified', status: 'UNSATISFIED', submittability_expression_result: { expression: VERIFIED } },
          { name: 'No-Op', status: 'NOT_APPLICABLE' },
        ],
      }),
    );
    expect(gerritMergeRefusal(state, ['Verified'])).toBeNull();
    expect(gerritMergeRefusal(state, [])).toBe(`submit requirement Verified unsatisfied (${VERIFIED})`);
  });
});

describe('submit records', () => {
  const records: ChangeJson['submit_records'] = [
    {
      rule_name: 'gerrit~PrologRule',
      status: 'NOT_READY',
      labels: [
        { label: 'Code-Review', status: 'OK' },
        { label: 'Non-Author', status: 'NEED' },
        { label: 'Legal', status: 'REJECT' },
        { label: 'Lint', status: 'MAY' },
      ],
    },
    { rule_name: 'plugin~Ready', status: 'OK', labels: [{ label: 'Other', status: 'NEED' }] },
  ];

  it('reads the labels a NOT_READY record needs or rejects as missing where no submit requirement is answered', () => {
    const state = gerritState(change({ submit_records: records, labels: { 'Code-Review': { approved: {} } } }));
    expect(state.missingLabels).toEqual(['Non-Author', 'Legal']);
    expect(gerritMergeRefusal(state, ['Legal'])).toBe('missing labels: Non-Author');
  });

  it('leaves the records to the submit requirements where Gerrit answers them', () => {
    const requirements = [{ name: 'Code-Review', status: 'SATISFIED' }];
    const state = gerritState(change({ submit_records: records, submit_requirements: requirements }));
    expect(state.missingLabels).toEqual([]);
  });
});

describe('hasSubmitRequirements', () => {
  it('is true from Gerrit 3.5 on', () => {
    expect(['3.4.8', '2.16.28', '3.5.0', '3.5.0-rc1', '3.10.1', '4.0'].map(hasSubmitRequirements)).toEqual([
      false,
      false,
      true,
      true,
      true,
      true,
    ]);
  });
});
