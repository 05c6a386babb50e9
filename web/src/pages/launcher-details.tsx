/**
 * The launcher's detail pages (the reference's paths): `/t/{tenant}/provider/{name}` (its labels,
 * images and flavors), `/t/{tenant}/image/{name}` and `/t/{tenant}/provider/{p}/image/{name}` (an
 * image's build artifacts and their uploads).
 */
import { Link } from 'wouter';
import { useQuery } from '../api/hooks';
import { Empty, ErrorBox, Facts, PageTitle } from '../components/common';
import { Table } from '../components/table';
import { TenantData } from '../components/tenant-data';
import { formatTime } from '../format';
import { LauncherDetailDocument, type ImageDetailFieldsFragment } from '../generated/graphql';
import { providerPath, tenantPath } from '../url';

function source(context: { project: string; branch: string; path: string }): string {
  return `${context.project} ${context.branch} ${context.path}`;
}

export function ProviderPage({ tenant, name }: { tenant: string; name: string }) {
  const { data, error } = useQuery(LauncherDetailDocument, { tenant });
  return (
    <section>
      <PageTitle>Provider {name}</PageTitle>
      <TenantData data={data} error={error} what="the provider">
        {(t) => {
          const provider = t.providers.find((p) => p.name === name);
          if (provider === undefined) {
            return <ErrorBox error={`The tenant has no provider ${name}.`} />;
          }
          return (
            <>
              <Facts
                rows={[
                  ['Connection', provider.connection],
                  ['Section', provider.section],
                  ['Defined in', source(provider.sourceContext)],
                ]}
              />
              <h2>Labels</h2>
              <Table
                head={['Label', 'Image', 'Flavor', 'Min ready', 'Description']}
                rows={provider.labels.map((l) => ({
                  key: l.name,
                  cells: [l.name, l.image, l.flavor, l.minReady, l.description ?? ''],
                }))}
              />
              <h2>Images</h2>
              {provider.images.length === 0 ? (
                <Empty>The provider offers no image.</Empty>
              ) : (
                <ul>
                  {provider.images.map((image) => (
                    <li key={image.name}>
                      <Link
                        href={tenantPath(
                          tenant,
                          `provider/${encodeURIComponent(provider.name)}/image/${encodeURIComponent(image.name)}`,
                        )}
                      >
                        {image.name}
                      </Link>
                    </li>
                  ))}
                </ul>
              )}
              <h2>Flavors</h2>
              <Table
                head={['Flavor', 'Description']}
                rows={provider.flavors.map((f) => ({ key: f.name, cells: [f.name, f.description ?? ''] }))}
              />
            </>
          );
        }}
      </TenantData>
    </section>
  );
}

/** `provider`: the provider whose image page this is (the reference's provider image page), or null. */
export function ImagePage({ tenant, name, provider }: { tenant: string; name: string; provider: string | null }) {
  const { data, error } = useQuery(LauncherDetailDocument, { tenant });
  return (
    <section>
      <PageTitle>Image {name}</PageTitle>
      {provider !== null && (
        <p className="links">
          Offered by provider <Link href={providerPath(tenant, provider)}>{provider}</Link>
        </p>
      )}
      <TenantData data={data} error={error} what="the image">
        {(t) => {
          const image = t.images.find((i) => i.name === name);
          if (image === undefined) {
            return <ErrorBox error={`The tenant has no image ${name}.`} />;
          }
          if (
            provider !== null &&
            !t.providers.some((p) => p.name === provider && p.images.some((i) => i.name === name))
          ) {
            return <ErrorBox error={`Provider ${provider} does not offer image ${name}.`} />;
          }
          return <ImageDetails tenant={tenant} image={image} />;
        }}
      </TenantData>
    </section>
  );
}

function ImageDetails({ tenant, image }: { tenant: string; image: ImageDetailFieldsFragment }) {
  return (
    <>
      <Facts
        rows={[
          ['Type', image.type],
          ['Description', image.description],
          ['Project', image.projectCanonicalName],
          ['Branch', image.branch],
          ['Defined in', source(image.sourceContext)],
        ]}
      />
      <h2>Build artifacts</h2>
      {image.buildArtifacts.length === 0 ? (
        <Empty>{image.type === 'ZUUL' ? 'No build of this image yet.' : 'A cloud image has no build artifacts.'}</Empty>
      ) : (
        image.buildArtifacts.map((artifact) => (
          <section key={artifact.uuid} className="artifact" aria-label={`Build artifact ${artifact.uuid}`}>
            <h3>
              <code>{artifact.uuid.slice(0, 12)}</code> {artifact.format}
            </h3>
            <Facts
              rows={[
                ['State', `${artifact.state ?? ''} since ${formatTime(artifact.stateTime)}`],
                ['Built', formatTime(artifact.timestamp)],
                [
                  'Build',
                  artifact.buildUuid !== null && artifact.buildTenant ? (
                    <Link href={tenantPath(tenant, `build/${artifact.buildUuid}`)}>
                      {artifact.buildUuid.slice(0, 12)}
                    </Link>
                  ) : (
                    artifact.buildUuid
                  ),
                ],
                ['Validated', artifact.validated ? 'yes' : 'no'],
                ['File', artifact.url !== null ? <a href={artifact.url}>{artifact.url}</a> : null],
              ]}
            />
            <Table
              head={['Upload', 'Endpoint', 'State', 'Since', 'External id', 'Validated']}
              rows={artifact.uploads.map((u) => ({
                key: u.uuid,
                cells: [
                  <code>{u.uuid.slice(0, 12)}</code>,
                  u.endpointName,
                  u.state,
                  formatTime(u.stateTime),
                  u.externalId ?? '',
                  u.validated ? 'yes' : 'no',
                ],
              }))}
            />
          </section>
        ))
      )}
    </>
  );
}
