/**
 * The pages of a tenant, by path. Paths follow the reference dashboard's route list, so the links
 * that bots, reports and the REST status carry (`stream/<uuid>`, `build/<uuid>`, ...) open the
 * matching page (docs/dashboard.md#pages has the table).
 */
import { lazy } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { StatusPage } from './status/status-page';
import { NotFoundPage } from './pages/not-found';
import { tenantPath } from './url';

const BuildsPage = lazy(() => import('./pages/builds'));
const BuildPage = lazy(() => import('./pages/build'));
const StreamPage = lazy(() => import('./pages/stream'));
const BuildsetsPage = lazy(() => import('./pages/buildsets'));
const BuildsetPage = lazy(() => import('./pages/buildset'));
const ChangePage = lazy(() => import('./pages/change'));
const FreezeJobPage = lazy(() => import('./pages/freeze-job'));
const RuntimePage = lazy(() => import('./pages/runtime'));
const AnalyticsPage = lazy(() => import('./analytics/analytics-page'));
const OpenApiPage = lazy(() => import('./pages/openapi'));
const JobsPage = lazy(() => import('./pages/jobs').then((m) => ({ default: m.JobsPage })));
const JobPage = lazy(() => import('./pages/jobs').then((m) => ({ default: m.JobPage })));
const ProjectsPage = lazy(() => import('./pages/projects').then((m) => ({ default: m.ProjectsPage })));
const ProjectPage = lazy(() => import('./pages/projects').then((m) => ({ default: m.ProjectPage })));
const ConfigErrorsPage = lazy(() => import('./pages/config-errors').then((m) => ({ default: m.ConfigErrorsPage })));
const SemaphoresPage = lazy(() => import('./pages/config-errors').then((m) => ({ default: m.SemaphoresPage })));
const SemaphorePage = lazy(() => import('./pages/semaphore'));
const AutoholdsPage = lazy(() => import('./pages/autoholds').then((m) => ({ default: m.AutoholdsPage })));
const AutoholdPage = lazy(() => import('./pages/autoholds').then((m) => ({ default: m.AutoholdPage })));
const SystemEventsPage = lazy(() => import('./pages/system').then((m) => ({ default: m.SystemEventsPage })));
const ComponentsPage = lazy(() => import('./pages/system').then((m) => ({ default: m.ComponentsPage })));
const launcher = () => import('./pages/launcher');
const LabelsPage = lazy(() => launcher().then((m) => ({ default: m.LabelsPage })));
const ProvidersPage = lazy(() => launcher().then((m) => ({ default: m.ProvidersPage })));
const ImagesPage = lazy(() => launcher().then((m) => ({ default: m.ImagesPage })));
const FlavorsPage = lazy(() => launcher().then((m) => ({ default: m.FlavorsPage })));
const details = () => import('./pages/launcher-details');
const ProviderPage = lazy(() => details().then((m) => ({ default: m.ProviderPage })));
const ImagePage = lazy(() => details().then((m) => ({ default: m.ImagePage })));
const launcherLive = () => import('./pages/launcher-live');
const NodesPage = lazy(() => launcherLive().then((m) => ({ default: m.NodesPage })));
const NodesetRequestsPage = lazy(() => launcherLive().then((m) => ({ default: m.NodesetRequestsPage })));

/** A path segment as text: wouter leaves reserved escapes (`%2F`, `%23`...) in place. */
export function decodeSegment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** The log file a build page URL opens (`.../log/<path>`, each segment URL-encoded). */
function decodeLogPath(raw: string): string {
  return raw.split('/').map(decodeSegment).join('/');
}

export function TenantPageRoutes({ tenant }: { tenant: string }) {
  return (
    <Switch>
      <Route path="/t/:tenant/status">
        <StatusPage tenant={tenant} />
      </Route>
      <Route path="/t/:tenant/status/pipeline/:pipeline">
        {(p) => <StatusPage tenant={tenant} pipeline={decodeSegment(p.pipeline)} />}
      </Route>
      <Route path="/t/:tenant/status/change/:change">
        {(p) => <ChangePage tenant={tenant} change={decodeSegment(p.change)} />}
      </Route>
      <Route path="/t/:tenant/stream/:uuid">{(p) => <StreamPage tenant={tenant} uuid={p.uuid} />}</Route>
      <Route path="/t/:tenant/builds">
        <BuildsPage tenant={tenant} />
      </Route>
      <Route path="/t/:tenant/build/:uuid/log/*">
        {(p) => <BuildPage tenant={tenant} uuid={p.uuid} tab="logs" logPath={decodeLogPath(p['*'])} />}
      </Route>
      <Route path="/t/:tenant/build/:uuid/logs">
        {(p) => <BuildPage tenant={tenant} uuid={p.uuid} tab="logs" logPath={null} />}
      </Route>
      <Route path="/t/:tenant/build/:uuid/console">
        {(p) => <BuildPage tenant={tenant} uuid={p.uuid} tab="console" logPath={null} />}
      </Route>
      <Route path="/t/:tenant/build/:uuid/artifacts">
        {(p) => <BuildPage tenant={tenant} uuid={p.uuid} tab="artifacts" logPath={null} />}
      </Route>
      <Route path="/t/:tenant/build/:uuid">
        {(p) => <BuildPage tenant={tenant} uuid={p.uuid} tab="summary" logPath={null} />}
      </Route>
      <Route path="/t/:tenant/buildsets">
        <BuildsetsPage tenant={tenant} />
      </Route>
      <Route path="/t/:tenant/buildset/:uuid">{(p) => <BuildsetPage tenant={tenant} uuid={p.uuid} />}</Route>
      <Route path="/t/:tenant/change/:id">{(p) => <ChangePage tenant={tenant} change={decodeSegment(p.id)} />}</Route>
      <Route path="/t/:tenant/jobs">
        <JobsPage tenant={tenant} />
      </Route>
      <Route path="/t/:tenant/job/:name">{(p) => <JobPage tenant={tenant} name={decodeSegment(p.name)} />}</Route>
      <Route path="/t/:tenant/freeze-job">
        <FreezeJobPage tenant={tenant} />
      </Route>
      <Route path="/t/:tenant/analytics">
        <AnalyticsPage tenant={tenant} />
      </Route>
      <Route path="/t/:tenant/runtime">
        <RuntimePage tenant={tenant} />
      </Route>
      <Route path="/t/:tenant/projects">
        <ProjectsPage tenant={tenant} />
      </Route>
      <Route path="/t/:tenant/project/*">{(p) => <ProjectPage tenant={tenant} name={decodeSegment(p['*'])} />}</Route>
      <Route path="/t/:tenant/config-errors">
        <ConfigErrorsPage tenant={tenant} />
      </Route>
      <Route path="/t/:tenant/semaphores">
        <SemaphoresPage tenant={tenant} />
      </Route>
      <Route path="/t/:tenant/semaphore/:name">
        {(p) => <SemaphorePage tenant={tenant} name={decodeSegment(p.name)} />}
      </Route>
      <Route path="/t/:tenant/autoholds">
        <AutoholdsPage tenant={tenant} />
      </Route>
      <Route path="/t/:tenant/autohold/:id">{(p) => <AutoholdPage tenant={tenant} id={p.id} />}</Route>
      <Route path="/t/:tenant/labels">
        <LabelsPage tenant={tenant} />
      </Route>
      <Route path="/t/:tenant/nodes">
        <NodesPage tenant={tenant} />
      </Route>
      <Route path="/t/:tenant/providers">
        <ProvidersPage tenant={tenant} />
      </Route>
      <Route path="/t/:tenant/provider/:provider/image/:image">
        {(p) => <ImagePage tenant={tenant} name={decodeSegment(p.image)} provider={decodeSegment(p.provider)} />}
      </Route>
      <Route path="/t/:tenant/provider/:provider">
        {(p) => <ProviderPage tenant={tenant} name={decodeSegment(p.provider)} />}
      </Route>
      <Route path="/t/:tenant/images">
        <ImagesPage tenant={tenant} />
      </Route>
      <Route path="/t/:tenant/image/:image">
        {(p) => <ImagePage tenant={tenant} name={decodeSegment(p.image)} provider={null} />}
      </Route>
      <Route path="/t/:tenant/flavors">
        <FlavorsPage tenant={tenant} />
      </Route>
      <Route path="/t/:tenant/nodeset-requests">
        <NodesetRequestsPage tenant={tenant} />
      </Route>
      <Route path="/t/:tenant/system-events">
        <SystemEventsPage tenant={tenant} />
      </Route>
      <Route path="/t/:tenant/components">
        <ComponentsPage />
      </Route>
      <Route path="/t/:tenant/openapi">
        <OpenApiPage />
      </Route>
      <Route path="/t/:tenant">
        <Redirect to={tenantPath(tenant, 'status')} replace />
      </Route>
      <Route>
        <NotFoundPage />
      </Route>
    </Switch>
  );
}
