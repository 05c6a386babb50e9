/**
 * REST routes served from the live engine (status, state) or its tenant-admin mutations: the
 * engine contract test (test/integration/rest-engine-contract.test.ts) covers them, the
 * history-only contract test (rest-contract.test.ts) skips them.
 */
export const ENGINE_ROUTES: ReadonlySet<string> = new Set([
  'status',
  'status_change',
  'state',
  'enqueue',
  'dequeue',
  'promote',
  'autohold',
  'autohold_list',
  'autohold_by_request_id',
  'quarantine',
  'quarantine_job',
]);
