/** `/t/{tenant}/projects` and `/t/{tenant}/project/{name}`: projects, their pipelines and jobs per branch, the frozen job graph. */
import { Link } from 'wouter';
import { useQuery } from '../api/hooks';
import { Empty, ErrorBox, Loading, PageTitle } from '../components/common';
import { JobGraphPicture } from '../components/job-graph';
import { TenantData } from '../components/tenant-data';
import { FrozenJobsDocument, ProjectDetailDocument, ProjectsDocument } from '../generated/graphql';
import { tenantPath, useUrlParams } from '../url';

export function ProjectsPage({ tenant }: { tenant: string }) {
  const { data, error } = useQuery(ProjectsDocument, { tenant });
  return (
    <section>
      <PageTitle>Projects</PageTitle>
      <TenantData data={data} error={error} what="projects">
        {(t) => (
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Project</th>
                <th scope="col">Connection</th>
                <th scope="col">Type</th>
                <th scope="col">Pages</th>
              </tr>
            </thead>
            <tbody>
              {t.projects.map((project) => (
                <tr key={project.canonicalName}>
                  <th scope="row" data-label="Project">
                    <Link href={tenantPath(tenant, `project/${project.canonicalName}`)}>{project.name}</Link>
                  </th>
                  <td data-label="Connection">{project.connectionName}</td>
                  <td data-label="Type">{project.type === 'CONFIG' ? 'config (trusted)' : 'untrusted'}</td>
                  <td className="links" data-label="Pages">
                    <Link href={tenantPath(tenant, `builds?project=${encodeURIComponent(project.name)}`)}>Builds</Link>{' '}
                    <Link href={tenantPath(tenant, `buildsets?project=${encodeURIComponent(project.name)}`)}>
                      Buildsets
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </TenantData>
    </section>
  );
}

export function ProjectPage({ tenant, name }: { tenant: string; name: string }) {
  const { data, error } = useQuery(ProjectDetailDocument, { tenant, name });
  const params = useUrlParams();
  return (
    <section>
      <PageTitle>Project {name}</PageTitle>
      <TenantData data={data} error={error} what="the project">
        {(t) => {
          if (t.project?.__typename !== 'Project') {
            return <ErrorBox error={t.project?.message ?? 'Project not found'} />;
          }
          const project = t.project;
          const pipelines = [...new Set(project.configs.flatMap((c) => c.pipelines.map((p) => p.name)))];
          const branch = params.get('branch') ?? project.metadata.defaultBranch;
          const pipeline = params.get('pipeline') ?? pipelines[0];
          return (
            <>
              <p className="muted">
                {project.canonicalName} · {project.type === 'CONFIG' ? 'config project' : 'untrusted project'} · default
                branch {project.metadata.defaultBranch} · merge mode {project.metadata.mergeMode}
              </p>
              <h2>Pipelines and jobs</h2>
              {project.configs.length === 0 ? (
                <Empty>This project has no project stanza.</Empty>
              ) : (
                <table className="table">
                  <thead>
                    <tr>
                      <th scope="col">Branches</th>
                      <th scope="col">Pipeline</th>
                      <th scope="col">Jobs</th>
                    </tr>
                  </thead>
                  <tbody>
                    {project.configs.flatMap((config, c) =>
                      config.pipelines.map((p) => (
                        <tr key={`${c}-${p.name}`}>
                          <td data-label="Branches">{config.branches?.join(', ') || config.sourceContext.branch}</td>
                          <td data-label="Pipeline">{p.name}</td>
                          <td data-label="Jobs">
                            {p.jobs.map((job, j) => (
                              <span key={job.name}>
                                {j > 0 && ', '}
                                <Link href={tenantPath(tenant, `job/${encodeURIComponent(job.name)}`)}>{job.name}</Link>
                              </span>
                            ))}
                          </td>
                        </tr>
                      )),
                    )}
                  </tbody>
                </table>
              )}
              {pipeline !== undefined && (
                <>
                  <h2>Job graph</h2>
                  <form className="filters" onSubmit={(e) => e.preventDefault()}>
                    <label>
                      Pipeline
                      <select value={pipeline} onChange={(e) => params.set({ pipeline: e.target.value })}>
                        {pipelines.map((p) => (
                          <option key={p}>{p}</option>
                        ))}
                      </select>
                    </label>
                    <label>
                      Branch
                      <select value={branch} onChange={(e) => params.set({ branch: e.target.value })}>
                        {project.branches.map((b) => (
                          <option key={b}>{b}</option>
                        ))}
                      </select>
                    </label>
                  </form>
                  <FrozenGraph tenant={tenant} project={project.canonicalName} pipeline={pipeline} branch={branch} />
                </>
              )}
            </>
          );
        }}
      </TenantData>
    </section>
  );
}

function FrozenGraph({
  tenant,
  project,
  pipeline,
  branch,
}: {
  tenant: string;
  project: string;
  pipeline: string;
  branch: string;
}) {
  const { data, error } = useQuery(FrozenJobsDocument, { tenant, project, pipeline, branch });
  if (error !== undefined) {
    return <ErrorBox error={error} />;
  }
  if (data === undefined) {
    return <Loading what="the job graph" />;
  }
  const graph = data.tenant?.__typename === 'Tenant' ? data.tenant.freezeJobs : null;
  if (graph?.__typename !== 'JobGraph') {
    return <ErrorBox error={graph && 'message' in graph ? graph.message : 'No job graph'} />;
  }
  const query = (job: string, jobParam: string) =>
    new URLSearchParams({ pipeline, project, branch, [jobParam]: job }).toString();
  const links = (page: string, jobParam: string) =>
    graph.jobs.map((job, i) => (
      <span key={job.name}>
        {i > 0 && ', '}
        <Link href={tenantPath(tenant, `${page}?${query(job.name, jobParam)}`)}>{job.name}</Link>
      </span>
    ));
  return (
    <>
      <JobGraphPicture tenant={tenant} jobs={graph.jobs} />
      {graph.jobs.length > 0 && (
        <p className="muted small">
          Each job as it would run here: {links('freeze-job', 'job')}. Their build times: {links('runtime', 'job_name')}
          .
        </p>
      )}
    </>
  );
}
