/** The REST route table: one entry per documented path, in matching order. */
import type { RestRoute } from './route';
import { apiIndexRoute } from './routes/api-index';
import { autoholdRoute, autoholdsRoute, projectAutoholdRoute } from './routes/autohold';
import { quarantineJobRoute, quarantineRoute } from './routes/quarantine';
import { badgeRoute } from './routes/badge';
import { buildTimesRoute } from './routes/build-times';
import { buildRoute, buildsRoute } from './routes/builds';
import { buildsetRoute, buildsetsRoute } from './routes/buildsets';
import { dequeueRoute, enqueueRoute, promoteRoute } from './routes/control';
import { componentsRoute, connectionsRoute } from './routes/deployment';
import { infoRoute, tenantInfoRoute } from './routes/info';
import { freezeJobRoute, freezeJobsRoute, freezePipelineRoute, jobRoute, projectRoute } from './routes/job-graph';
import { openApiRoute } from './routes/openapi';
import { stateRoute, statusChangeRoute, statusRoute } from './routes/status';
import {
  projectSecretsKeyRoute,
  projectSshKeyRoute,
  rootAuthorizationsRoute,
  tenantAuthorizationsRoute,
  tenantSshKeyRoute,
} from './routes/security';
import { systemEventsRoute } from './routes/system-events';
import {
  imageBuildArtifactRoute,
  imageBuildRoute,
  imageUploadRoute,
  imageUploadValidateRoute,
  nodeRoute,
  nodesetRequestRoute,
  nodesetRequestsRoute,
  nodesRoute,
} from './routes/launcher-runtime';
import { flavorsRoute, imagesRoute, labelsRoute, providersRoute } from './routes/launcher-config';
import {
  configErrorsRoute,
  jobsRoute,
  pipelinesRoute,
  projectsRoute,
  semaphoresRoute,
  tenantStatusRoute,
} from './routes/tenant-config';
import { tenantsRoute } from './routes/tenants';

export const REST_ROUTES: RestRoute[] = [
  apiIndexRoute(() => REST_ROUTES),
  infoRoute,
  componentsRoute,
  connectionsRoute,
  tenantsRoute,
  tenantInfoRoute,
  buildsRoute,
  buildRoute,
  buildTimesRoute,
  buildsetsRoute,
  buildsetRoute,
  badgeRoute,
  systemEventsRoute,
  statusRoute,
  statusChangeRoute,
  tenantStatusRoute,
  stateRoute,
  promoteRoute,
  autoholdsRoute,
  autoholdRoute,
  quarantineRoute,
  quarantineJobRoute,
  pipelinesRoute,
  projectsRoute,
  jobsRoute,
  semaphoresRoute,
  configErrorsRoute,
  labelsRoute,
  flavorsRoute,
  providersRoute,
  imagesRoute,
  nodesRoute,
  nodeRoute,
  nodesetRequestsRoute,
  nodesetRequestRoute,
  imageBuildRoute,
  imageBuildArtifactRoute,
  imageUploadRoute,
  imageUploadValidateRoute,
  jobRoute,
  freezeJobsRoute,
  freezeJobRoute,
  freezePipelineRoute,
  enqueueRoute,
  dequeueRoute,
  projectAutoholdRoute,
  rootAuthorizationsRoute,
  tenantAuthorizationsRoute,
  projectSecretsKeyRoute,
  projectSshKeyRoute,
  tenantSshKeyRoute,
  // Greedy project names: keep after every other `project/{p}/...` route.
  projectRoute,
];

REST_ROUTES.push(openApiRoute(() => REST_ROUTES));
