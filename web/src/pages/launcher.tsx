/** Launcher pages: labels, nodes (with hold), providers, images (with image build), flavors, nodeset requests. */
import { useQuery } from '../api/hooks';
import { Empty, PageTitle } from '../components/common';
import { Pager, paging } from '../components/list-filters';
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
  NodeHoldDocument,
  NodesDocument,
  NodesetRequestsDocument,
  ProvidersDocument,
} from '../generated/graphql';
import { useUrlParams } from '../url';

function Table({ head, rows }: { head: string[]; rows: Array<{ key: string; cells: React.ReactNode[] }> }) {
  if (rows.length === 0) {
    return <Empty>Nothing here.</Empty>;
  }
  return (
    <div className="table-wrap">
      <table className="table">
        <thead>
          <tr>
            {head.map((h) => (
              <th scope="col" key={h}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key}>
              {row.cells.map((cell, i) =>
                i === 0 ? (
                  <th scope="row" key={i} data-label={head[i]}>
                    {cell}
                  </th>
                ) : (
                  <td key={i} data-label={head[i]}>
                    {cell}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

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

export function NodesPage({ tenant }: { tenant: string }) {
  const params = useUrlParams();
  const { skip, limit } = paging(params);
  const { data, error, refetch } = useQuery(NodesDocument, { tenant, first: limit, offset: skip });
  const admin = useIsAdmin(tenant);
  return (
    <section>
      <PageTitle>Nodes</PageTitle>
      <TenantData data={data} error={error} what="nodes">
        {(t) => (
          <>
            <Table
              head={['Node', 'Label', 'Provider', 'State', 'Since', 'Host', 'Comment', '']}
              rows={t.nodes.nodes.map((n) => ({
                key: n.uuid,
                cells: [
                  <code>{n.uuid.slice(0, 12)}</code>,
                  n.label,
                  n.provider ?? '',
                  n.state,
                  formatTime(n.stateTime),
                  n.host ?? '',
                  n.comment ?? '',
                  admin && n.state !== 'HOLD' ? (
                    <ActionButton
                      label="Hold"
                      className="small-button"
                      onDone={(o) => o.ok && refetch()}
                      run={() =>
                        runAction(
                          NodeHoldDocument,
                          { input: { tenant, nodeId: n.uuid, comment: 'held from the dashboard' } },
                          (d) => d.nodeHold,
                          'Node held.',
                        )
                      }
                    />
                  ) : (
                    ''
                  ),
                ],
              }))}
            />
            <Pager total={t.nodes.totalCount} shown={t.nodes.nodes.length} />
          </>
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
                p.name,
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
                i.name,
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

export function NodesetRequestsPage({ tenant }: { tenant: string }) {
  const params = useUrlParams();
  const { skip, limit } = paging(params);
  const { data, error } = useQuery(NodesetRequestsDocument, { tenant, first: limit, offset: skip });
  return (
    <section>
      <PageTitle>Nodeset requests</PageTitle>
      <TenantData data={data} error={error} what="nodeset requests">
        {(t) => (
          <>
            <Table
              head={['Request', 'State', 'Labels', 'Job', 'Pipeline', 'Project', 'Requested', 'Failure']}
              rows={t.nodesetRequests.nodes.map((r) => ({
                key: r.uuid,
                cells: [
                  <code>{r.uuid.slice(0, 12)}</code>,
                  r.state,
                  r.labels.join(', '),
                  r.jobName ?? '',
                  r.pipelineName ?? '',
                  r.project ?? '',
                  formatTime(r.requestTime),
                  r.failureReason ?? '',
                ],
              }))}
            />
            <Pager total={t.nodesetRequests.totalCount} shown={t.nodesetRequests.nodes.length} />
          </>
        )}
      </TenantData>
    </section>
  );
}
