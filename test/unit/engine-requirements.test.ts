import type { ChangeInfo } from '../../src/model/changes';
import type { ChangeRequirement } from '../../src/engine/ports/layout';
import { hasRequirements, unmetRequirement } from '../../src/engine/requirements';
import { pipeline } from '../engine/scripted-layout';

function change(overrides: Partial<ChangeInfo> = {}): ChangeInfo {
  return {
    kind: 'change',
    project: 'git.example.com/org/project',
    ref: 'refs/changes/01/1/2',
    branch: 'master',
    number: 1,
    patchset: '2',
    oldrev: null,
    newrev: 'abc',
    url: null,
    owner: 'alice',
    dependsOn: [],
    merged: false,
    currentPatchset: true,
    ...overrides,
  };
}

const branch: ChangeInfo = {
  ...change(),
  kind: 'branch',
  ref: 'refs/heads/master',
  number: null,
  patchset: null,
  merged: true,
};

function check(
  require: ChangeRequirement[],
  reject: ChangeRequirement[],
  candidate: ChangeInfo,
  connection = 'git',
): string | null {
  return unmetRequirement(pipeline('gate', 'dependent', { require, reject }), connection, candidate, new Date(0));
}

describe('pipeline require/reject', () => {
  it('passes a change meeting every require option', () => {
    expect(check([{ connection: 'git', open: true, currentPatchset: true, status: ['NEW'] }], [], change())).toBeNull();
  });

  it('names the first unmet require option', () => {
    expect(check([{ connection: 'git', open: true }], [], change({ merged: true }))).toBe(
      'Change 1,2 of git.example.com/org/project does not meet the requirements of pipeline gate: it is not open (require open: true)',
    );
    expect(check([{ connection: 'git', currentPatchset: true }], [], change({ currentPatchset: false }))).toMatch(
      /it is not the current patchset \(require current-patchset: true\)$/,
    );
    expect(check([{ connection: 'git', status: ['MERGED'] }], [], change())).toMatch(
      /its status NEW is not one of MERGED \(require status\)$/,
    );
    expect(check([{ connection: 'git', open: false }], [], change())).toMatch(/it is open \(require open: false\)$/);
  });

  it('refuses a change matching a reject option', () => {
    expect(check([], [{ connection: 'git', status: ['MERGED'] }], change())).toBeNull();
    expect(check([], [{ connection: 'git', status: ['MERGED'] }], change({ merged: true }))).toBe(
      'Change 1,2 of git.example.com/org/project is rejected by pipeline gate: its status is MERGED (reject status)',
    );
    expect(check([], [{ connection: 'git', currentPatchset: false }], change({ currentPatchset: false }))).toMatch(
      /it is not the current patchset \(reject current-patchset: false\)$/,
    );
    expect(check([], [{ connection: 'git', open: true }], change())).toMatch(/it is open \(reject open: true\)$/);
  });

  it('treats a change of unknown patchset currency as current', () => {
    const { currentPatchset: _unknown, ...unknown } = change();
    expect(check([{ connection: 'git', currentPatchset: true }], [], unknown)).toBeNull();
  });

  it('fails change options for a ref update, as the reference does', () => {
    expect(check([{ connection: 'git', open: true }], [], branch)).toBe(
      'Ref refs/heads/master of git.example.com/org/project does not meet the requirements of pipeline gate: it is not a change (require open)',
    );
    expect(check([], [{ connection: 'git', currentPatchset: true }], branch)).toMatch(
      /it is not a change \(reject current-patchset\)$/,
    );
    expect(check([], [{ connection: 'git', status: ['MERGED'] }], branch)).toBeNull();
  });

  it("applies only the entries of the change's connection", () => {
    const requirements = [{ connection: 'other', open: false }];
    expect(check(requirements, [], change())).toBeNull();
    expect(check(requirements, [], change(), 'other')).not.toBeNull();
    const gate = pipeline('gate', 'dependent', { require: requirements });
    expect([hasRequirements(gate, 'git'), hasRequirements(gate, 'other')]).toEqual([false, true]);
  });

  it("passes the pass's clock to a driver's own check (GitHub review ages)", () => {
    const seen: Date[] = [];
    const requirement: ChangeRequirement = {
      connection: 'git',
      driverCheck: (_change, now) => {
        seen.push(now);
        return now.getTime() > 1000 ? 'too late' : null;
      },
    };
    const gate = pipeline('gate', 'dependent', { require: [requirement] });
    expect(unmetRequirement(gate, 'git', change(), new Date(1000))).toBeNull();
    expect(unmetRequirement(gate, 'git', change(), new Date(2000))).toMatch(/too late$/);
    expect(seen.map((d) => d.getTime())).toEqual([1000, 2000]);
  });
});
