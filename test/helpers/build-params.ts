/** Build request parameters for executor tests, with overridable job fields. */
import type { BuildJob, BuildRequestParams } from '../../src/model/build-request';

export function buildParams(
  overrides: { job?: Partial<BuildJob>; params?: Partial<BuildRequestParams> } = {},
): BuildRequestParams {
  return {
    buildUuid: 'ab12cd34ef5600000000000000000001',
    buildsetUuid: 'bs0000000001',
    tenant: 'example',
    pipeline: 'check',
    attempt: 1,
    job: {
      name: 'unit',
      timeout: null,
      postTimeout: null,
      attempts: 3,
      workspaceScheme: 'golang',
      overrideCheckout: null,
      vars: {},
      extraVars: {},
      preRun: [],
      run: [],
      postRun: [],
      ...overrides.job,
    },
    item: {
      connection: 'local',
      project: 'org/app',
      branch: 'master',
      ref: 'refs/changes/01/1/1',
      change: 1,
      patchset: '1',
      oldrev: null,
      newrev: null,
    },
    mergerItems: [],
    projects: [],
    parentData: {},
    artifacts: [],
    eventId: null,
    ...overrides.params,
  };
}

/** A step of project org/app. */
export function step(path: string): { connection: string; project: string; path: string } {
  return { connection: 'local', project: 'org/app', path };
}
