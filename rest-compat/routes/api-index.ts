/**
 * `GET /api`: symbolic names -> URL templates (docs/rest.md#api-index; earlier key set
 * docs/rest.md#earlier-shape-endpoints).
 */
import { freeObject } from '../json-schema';
import type { RestRoute } from '../route';

const T = '/api/tenant/{tenant}';

const CURRENT: Record<string, string> = {
  info: '/api/info',
  connections: '/api/connections',
  components: '/api/components',
  authorizations: '/api/authorizations',
  tenants: '/api/tenants',
  tenant_info: `${T}/info`,
  status: `${T}/status`,
  status_change: `${T}/status/change/{change}`,
  jobs: `${T}/jobs`,
  job: `${T}/job/{job_name}`,
  projects: `${T}/projects`,
  project: `${T}/project/{project:.*}`,
  project_freeze_jobs: `${T}/pipeline/{pipeline}/project/{project:.*}/branch/{branch:.*}/freeze-jobs`,
  pipelines: `${T}/pipelines`,
  semaphores: `${T}/semaphores`,
  labels: `${T}/labels`,
  nodes: `${T}/nodes`,
  nodeset_requests: `${T}/nodeset-requests`,
  key: `${T}/key/{project:.*}.pub`,
  project_ssh_key: `${T}/project-ssh-key/{project:.*}.pub`,
  console_stream: `${T}/console-stream`,
  badge: `${T}/badge`,
  builds: `${T}/builds`,
  build: `${T}/build/{uuid}`,
  buildsets: `${T}/buildsets`,
  buildset: `${T}/buildset/{uuid}`,
  config_errors: `${T}/config-errors`,
  tenant_authorizations: `${T}/authorizations`,
  tenant_status: `${T}/tenant-status`,
  autohold: `${T}/project/{project:.*}/autohold`,
  autohold_list: `${T}/autohold`,
  autohold_by_request_id: `${T}/autohold/{request_id}`,
  autohold_delete: `${T}/autohold/{request_id}`,
  enqueue: `${T}/project/{project:.*}/enqueue`,
  dequeue: `${T}/project/{project:.*}/dequeue`,
  promote: `${T}/promote`,
};

const EARLIER_KEYS = [
  'info',
  'connections',
  'tenants',
  'tenant_info',
  'status',
  'status_change',
  'jobs',
  'job',
  'projects',
  'project',
  'project_freeze_jobs',
  'pipelines',
  'labels',
  'nodes',
  'key',
  'project_ssh_key',
  'console_stream',
  'builds',
  'build',
  'buildsets',
  'buildset',
  'config_errors',
];

/** Index keys whose route has another name in the table. */
const ROUTE_NAMES: Record<string, string> = {
  project_freeze_jobs: 'freeze_jobs',
  autohold_delete: 'autohold_by_request_id',
};

/** Only templates of routes that are served: the index never points at a path that answers 404. */
function served(index: Record<string, string>, routes: readonly RestRoute[]): Record<string, string> {
  const names = new Set(routes.map((route) => route.name));
  return Object.fromEntries(Object.entries(index).filter(([key]) => names.has(ROUTE_NAMES[key] ?? key)));
}

/** The `/api` index route over `routes` (the table it belongs to). */
export const apiIndexRoute = (routes: () => readonly RestRoute[]): RestRoute => ({
  name: 'index',
  pattern: '',
  endpoints: {
    GET: {
      summary: "Index of the API: symbolic names and URL templates of the served routes (the reference's names)",
      auth: 'public',
      operations: [],
      responses: {
        current: { status: 200, schema: freeObject('name -> URL template'), description: 'Index' },
        earlier: { status: 200, schema: freeObject('name -> URL template'), description: 'Index' },
      },
      errors: {},
      handler: async (req) => {
        const index =
          req.shape === 'earlier' ? Object.fromEntries(EARLIER_KEYS.map((key) => [key, CURRENT[key]])) : CURRENT;
        return { body: served(index, routes()) };
      },
    },
  },
});
