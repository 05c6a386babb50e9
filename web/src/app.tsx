/**
 * The dashboard shell: header (tenant navigation, sign-in, live indicator) and the routes. Paths
 * follow the reference dashboard's where it has the same page (docs/dashboard.md).
 */
import { lazy, Suspense, type ReactNode } from 'react';
import { Link, Redirect, Route, Switch, useParams } from 'wouter';
import { useLiveConnection } from './api/hooks';
import { SignIn } from './components/sign-in';
import { Loading } from './components/common';
import { ErrorBoundary } from './components/error-boundary';
import { tenantPath } from './url';
import { StatusPage } from './status/status-page';
import { TenantsPage } from './pages/tenants';
import { NotFoundPage } from './pages/not-found';
import { AuthCallbackPage } from './pages/auth-callback';

const BuildsPage = lazy(() => import('./pages/builds'));
const BuildPage = lazy(() => import('./pages/build'));
const BuildsetsPage = lazy(() => import('./pages/buildsets'));
const BuildsetPage = lazy(() => import('./pages/buildset'));
const ChangePage = lazy(() => import('./pages/change'));
const JobsPage = lazy(() => import('./pages/jobs').then((m) => ({ default: m.JobsPage })));
const JobPage = lazy(() => import('./pages/jobs').then((m) => ({ default: m.JobPage })));
const ProjectsPage = lazy(() => import('./pages/projects').then((m) => ({ default: m.ProjectsPage })));
const ProjectPage = lazy(() => import('./pages/projects').then((m) => ({ default: m.ProjectPage })));
const ConfigErrorsPage = lazy(() => import('./pages/config-errors').then((m) => ({ default: m.ConfigErrorsPage })));
const SemaphoresPage = lazy(() => import('./pages/config-errors').then((m) => ({ default: m.SemaphoresPage })));
const AutoholdsPage = lazy(() => import('./pages/autoholds').then((m) => ({ default: m.AutoholdsPage })));
const AutoholdPage = lazy(() => import('./pages/autoholds').then((m) => ({ default: m.AutoholdPage })));
const SystemEventsPage = lazy(() => import('./pages/system').then((m) => ({ default: m.SystemEventsPage })));
const ComponentsPage = lazy(() => import('./pages/system').then((m) => ({ default: m.ComponentsPage })));
const launcher = () => import('./pages/launcher');
const LabelsPage = lazy(() => launcher().then((m) => ({ default: m.LabelsPage })));
const launcherLive = () => import('./pages/launcher-live');
const NodesPage = lazy(() => launcherLive().then((m) => ({ default: m.NodesPage })));
const ProvidersPage = lazy(() => launcher().then((m) => ({ default: m.ProvidersPage })));
const ImagesPage = lazy(() => launcher().then((m) => ({ default: m.ImagesPage })));
const FlavorsPage = lazy(() => launcher().then((m) => ({ default: m.FlavorsPage })));
const NodesetRequestsPage = lazy(() => launcherLive().then((m) => ({ default: m.NodesetRequestsPage })));

const TENANT_NAV: Array<[string, string]> = [
  ['status', 'Status'],
  ['projects', 'Projects'],
  ['jobs', 'Jobs'],
  ['builds', 'Builds'],
  ['buildsets', 'Buildsets'],
  ['config-errors', 'Config errors'],
  ['autoholds', 'Autoholds'],
  ['semaphores', 'Semaphores'],
  ['nodes', 'Nodes'],
  ['labels', 'Labels'],
  ['providers', 'Providers'],
  ['images', 'Images'],
  ['flavors', 'Flavors'],
  ['nodeset-requests', 'Nodeset requests'],
  ['system-events', 'System events'],
  ['components', 'Components'],
];

function TenantNav({ tenant }: { tenant: string }) {
  return (
    <nav className="tenant-nav" aria-label="Tenant pages">
      {TENANT_NAV.map(([page, label]) => (
        <Link key={page} href={tenantPath(tenant, page)} className={(active) => (active ? 'active' : '')}>
          {label}
        </Link>
      ))}
    </nav>
  );
}

function Header({ tenant }: { tenant?: string }) {
  const live = useLiveConnection();
  return (
    <header className="app-header">
      <div className="brand">
        <Link href="/tenants">Sluice</Link>
        {tenant !== undefined && (
          <>
            <span aria-hidden="true">/</span>
            <Link href={tenantPath(tenant, 'status')} className="tenant-name">
              {tenant}
            </Link>
          </>
        )}
      </div>
      {tenant !== undefined && <TenantNav tenant={tenant} />}
      <div className="header-tools">
        <span
          className={`live-dot ${live ? 'on' : 'off'}`}
          title={live ? 'Live updates connected' : 'Live updates not connected'}
        >
          <span className="sr-only">{live ? 'Live updates connected' : 'Live updates not connected'}</span>
        </span>
        <SignIn tenant={tenant} />
      </div>
    </header>
  );
}

function Shell({ tenant, children }: { tenant?: string; children: ReactNode }) {
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Header tenant={tenant} />
      <main id="main" tabIndex={-1}>
        <ErrorBoundary>
          <Suspense fallback={<Loading what="the page" />}>{children}</Suspense>
        </ErrorBoundary>
      </main>
    </>
  );
}

/** The log file a build page URL opens (`.../log/<path>`, each segment URL-encoded). */
function decodeLogPath(raw: string): string {
  try {
    return raw.split('/').map(decodeURIComponent).join('/');
  } catch {
    return raw;
  }
}

function TenantRoutes() {
  const { tenant = '' } = useParams<{ tenant: string }>();
  return (
    <Shell tenant={tenant}>
      <Switch>
        <Route path="/t/:tenant/status">
          <StatusPage tenant={tenant} />
        </Route>
        <Route path="/t/:tenant/builds">
          <BuildsPage tenant={tenant} />
        </Route>
        <Route path="/t/:tenant/build/:uuid/log/*">
          {(p) => <BuildPage tenant={tenant} uuid={p.uuid} logPath={decodeLogPath(p['*'])} />}
        </Route>
        <Route path="/t/:tenant/build/:uuid">{(p) => <BuildPage tenant={tenant} uuid={p.uuid} logPath={null} />}</Route>
        <Route path="/t/:tenant/buildsets">
          <BuildsetsPage tenant={tenant} />
        </Route>
        <Route path="/t/:tenant/buildset/:uuid">{(p) => <BuildsetPage tenant={tenant} uuid={p.uuid} />}</Route>
        <Route path="/t/:tenant/change/:id">{(p) => <ChangePage tenant={tenant} change={p.id} />}</Route>
        <Route path="/t/:tenant/jobs">
          <JobsPage tenant={tenant} />
        </Route>
        <Route path="/t/:tenant/job/:name">
          {(p) => <JobPage tenant={tenant} name={decodeURIComponent(p.name)} />}
        </Route>
        <Route path="/t/:tenant/projects">
          <ProjectsPage tenant={tenant} />
        </Route>
        <Route path="/t/:tenant/project/*">
          {(p) => <ProjectPage tenant={tenant} name={decodeURIComponent(p['*'])} />}
        </Route>
        <Route path="/t/:tenant/config-errors">
          <ConfigErrorsPage tenant={tenant} />
        </Route>
        <Route path="/t/:tenant/semaphores">
          <SemaphoresPage tenant={tenant} />
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
        <Route path="/t/:tenant/images">
          <ImagesPage tenant={tenant} />
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
        <Route path="/t/:tenant">
          <Redirect to={tenantPath(tenant, 'status')} replace />
        </Route>
        <Route>
          <NotFoundPage />
        </Route>
      </Switch>
    </Shell>
  );
}

export function App() {
  return (
    <Switch>
      <Route path="/">
        <Redirect to="/tenants" replace />
      </Route>
      <Route path="/tenants">
        <Shell>
          <TenantsPage />
        </Shell>
      </Route>
      <Route path="/components">
        <Shell>
          <ComponentsPage />
        </Shell>
      </Route>
      <Route path="/auth_callback">
        <Shell>
          <AuthCallbackPage />
        </Shell>
      </Route>
      <Route path="/t/:tenant">
        <TenantRoutes />
      </Route>
      <Route path="/t/:tenant/*">
        <TenantRoutes />
      </Route>
      <Route>
        <Shell>
          <NotFoundPage />
        </Shell>
      </Route>
    </Switch>
  );
}
