/** Launcher pages read once per visit: labels, providers, images (with image build), flavors. Nodes and nodeset requests are live: launcher-live.tsx. */
import { Link } from 'wouter';
import { useQuery } from '../api/hooks';
import { PageTitle } from '../components/common';
import { Table } from '../components/table';
import { TenantData } from '../components/tenant-data';
import { ActionButton } from '../admin/action-button';
import { runAction } from '../admin/run-action';
import { useIsAdmin } from '../admin/use-admin';
import { formatTime } from '../format';
import {
  FlavorsDocument,
  ImageBuildDocument,
  ImagesDocument,
  LabelsDocument,
  ProvidersDocument,
} from '../generated/graphql';
import { providerPath, tenantPath } from '../url';

export function LabelsPage({ tenant }: { tenant: string }) {
  const { data, error } = useQuery(LabelsDocument, { tenant });
  return (
    <section>
      <PageTitle>Labels</PageTitle>
      <TenantData data={data} error={error} what="labels">
        {(t) => (
          <Table
            head={['Label', 'Image', 'Flavor', 'Min ready', 'Description']}
            rows={t.labels.map((l) => ({
              key: l.name,
              cells: [l.name, l.image, l.flavor, l.minReady, l.description ?? ''],
            }))}
          />
        )}
      </TenantData>
    </section>
  );
}

export function ProvidersPage({ tenant }: { tenant: string }) {
  const { data, error } = useQuery(ProvidersDocument, { tenant });
  return (
    <section>
      <PageTitle>Providers</PageTitle>
      <TenantData data={data} error={error} what="providers">
        {(t) => (
          <Table
            head={['Provider', 'Connection', 'Section', 'Labels', 'Images', 'Flavors']}
            rows={t.providers.map((p) => ({
              key: p.canonicalName,
              cells: [
                <Link href={providerPath(tenant, p.name)}>{p.name}</Link>,
                p.connection ?? '',
                p.section,
                p.labels.map((l) => l.name).join(', '),
                p.images.map((i) => i.name).join(', '),
                p.flavors.map((f) => f.name).join(', '),
              ],
            }))}
          />
        )}
      </TenantData>
    </section>
  );
}

export function ImagesPage({ tenant }: { tenant: string }) {
  const { data, error } = useQuery(ImagesDocument, { tenant });
  const admin = useIsAdmin(tenant);
  return (
    <section>
      <PageTitle>Images</PageTitle>
      <TenantData data={data} error={error} what="images">
        {(t) => (
          <Table
            head={['Image', 'Type', 'Project', 'Builds', '']}
            rows={t.images.map((i) => ({
              key: i.name,
              cells: [
                <Link href={tenantPath(tenant, `image/${encodeURIComponent(i.name)}`)}>{i.name}</Link>,
                i.type,
                i.projectCanonicalName,
                i.buildArtifacts.map((a) => `${a.format} ${a.state ?? ''} ${formatTime(a.timestamp)}`).join('; '),
                admin && i.type === 'ZUUL' ? (
                  <ActionButton
                    label="Build"
                    className="small-button"
                    run={() =>
                      runAction(
                        ImageBuildDocument,
                        { input: { tenant, imageName: i.name } },
                        (d) => d.imageBuild,
                        'Image build requested.',
                      )
                    }
                  />
                ) : (
                  ''
                ),
              ],
            }))}
          />
        )}
      </TenantData>
    </section>
  );
}

export function FlavorsPage({ tenant }: { tenant: string }) {
  const { data, error } = useQuery(FlavorsDocument, { tenant });
  return (
    <section>
      <PageTitle>Flavors</PageTitle>
      <TenantData data={data} error={error} what="flavors">
        {(t) => (
          <Table
            head={['Flavor', 'Description']}
            rows={t.flavors.map((f) => ({ key: f.canonicalName, cells: [f.name, f.description ?? ''] }))}
          />
        )}
      </TenantData>
    </section>
  );
}
