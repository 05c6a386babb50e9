/**
 * Layouts with launcher objects for launcher tests: images, flavors, labels, sections and
 * providers given as plain specs, flattened by the real `flattenProvider`; everything else empty.
 */
import type { Flavor, Image, Label, Layout, Provider, Section, SourceContext } from '../../src/config/layout';
import { launcherCanonicalName } from '../../src/config/parse-launcher';
import { flattenProvider } from '../../src/config/provider-flatten';
import type { TenantConfig } from '../../src/config/tenant-file';
import type { LayoutSource } from '../../src/launcher/context';

export const CONFIG_PROJECT = 'git.example.com/org/config';

export interface LauncherLayoutSpec {
  tenant: string;
  images?: Array<{ name: string; type: 'zuul' | 'cloud' }>;
  flavors?: string[];
  labels?: Array<{ name: string; image: string; flavor: string; minReady?: number; maxReadyAge?: number }>;
  sections?: Array<{ name: string; connection: string; config?: Record<string, unknown> }>;
  providers?: Array<{ name: string; section: string; config?: Record<string, unknown> }>;
}

const sourceContext: SourceContext = {
  projectCanonicalName: CONFIG_PROJECT,
  projectName: 'org/config',
  connectionName: 'git',
  branch: 'master',
  path: 'zuul.yaml',
  trusted: true,
};

function tenantConfig(name: string): TenantConfig {
  return {
    name,
    projects: [],
    maxNodesPerJob: 5,
    maxJobTimeout: 10800,
    maxOidcTtl: 3600,
    defaultOidcTtl: 3600,
    allowedOidcIssuers: [],
    excludeUnprotectedBranches: false,
    excludeLockedBranches: false,
    defaultParent: 'base',
    accessRules: [],
    adminRules: [],
    readRestricted: false,
    anonymousReadAccess: true,
    semaphores: [],
    useNodepool: false,
  };
}

/** A layout holding only launcher objects. */
export function launcherLayout(spec: LauncherLayoutSpec): Layout {
  const cn = (name: string): string => launcherCanonicalName(CONFIG_PROJECT, name);
  const images = new Map<string, Image>(
    (spec.images ?? []).map((i) => [i.name, { name: i.name, canonicalName: cn(i.name), type: i.type, sourceContext }]),
  );
  const flavors = new Map<string, Flavor>(
    (spec.flavors ?? []).map((f) => [f, { name: f, canonicalName: cn(f), sourceContext }]),
  );
  const labels = new Map<string, Label>(
    (spec.labels ?? []).map((l) => [
      l.name,
      {
        name: l.name,
        canonicalName: cn(l.name),
        image: l.image,
        flavor: l.flavor,
        minReady: l.minReady,
        maxReadyAge: l.maxReadyAge,
        sourceContext,
      },
    ]),
  );
  const sections = new Map<string, Section>(
    (spec.sections ?? []).map((s) => [
      s.name,
      {
        name: s.name,
        canonicalName: cn(s.name),
        abstract: false,
        connection: s.connection,
        config: { name: s.name, connection: s.connection, ...s.config },
        sourceContext,
      },
    ]),
  );
  const providers = new Map<string, Provider>(
    (spec.providers ?? []).map((p) => [
      p.name,
      flattenProvider(
        { name: p.name, section: p.section, config: { name: p.name, section: p.section, ...p.config }, sourceContext },
        { sections, images, flavors, labels },
      ),
    ]),
  );
  return {
    uuid: `layout-${spec.tenant}`,
    tenantName: spec.tenant,
    tenant: tenantConfig(spec.tenant),
    loadedAt: new Date('2026-01-01T00:00:00Z'),
    projects: new Map(),
    pipelines: new Map(),
    jobs: new Map(),
    projectTemplates: new Map(),
    projectConfigs: new Map(),
    nodesets: new Map(),
    semaphores: new Map(),
    secrets: new Map(),
    queues: new Map(),
    images,
    flavors,
    labels,
    sections,
    providers,
    errors: [],
  };
}

/** A mutable set of tenant layouts. */
export class TestLayouts implements LayoutSource {
  private readonly layouts = new Map<string, Layout>();

  constructor(...layouts: Layout[]) {
    for (const layout of layouts) {
      this.set(layout);
    }
  }

  set(layout: Layout): void {
    this.layouts.set(layout.tenantName, layout);
  }

  tenantNames(): string[] {
    return [...this.layouts.keys()];
  }

  layout(tenant: string): Layout | undefined {
    return this.layouts.get(tenant);
  }
}

/** A controllable clock. */
export class TestClock {
  constructor(private current = new Date('2026-01-01T00:00:00Z')) {}

  now = (): Date => new Date(this.current);

  advance(seconds: number): void {
    this.current = new Date(this.current.getTime() + seconds * 1000);
  }
}
