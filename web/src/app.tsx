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
import { TenantsPage } from './pages/tenants';
import { NotFoundPage } from './pages/not-found';
import { AuthCallbackPage } from './pages/auth-callback';
import { TenantPageRoutes } from './routes';

const ComponentsPage = lazy(() => import('./pages/system').then((m) => ({ default: m.ComponentsPage })));
const OpenApiPage = lazy(() => import('./pages/openapi'));

const TENANT_NAV: Array<[string, string]> = [
  ['status', 'Status'],
  ['analytics', 'Analytics'],
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
      <Route path="/openapi">
        <Shell>
          <OpenApiPage />
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

/** Every page of a tenant, inside the shell with the tenant's navigation. */
function TenantRoutes() {
  const { tenant = '' } = useParams<{ tenant: string }>();
  return (
    <Shell tenant={tenant}>
      <TenantPageRoutes tenant={tenant} />
    </Shell>
  );
}
