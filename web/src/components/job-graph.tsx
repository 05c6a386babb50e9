/** A frozen job graph as a picture: jobs in columns by dependency depth, arrows from each dependency. */
import { Link } from 'wouter';
import { tenantPath } from '../url';

export interface GraphJob {
  name: string;
  voting: boolean;
  dependencies: Array<{ name: string; soft: boolean }>;
}

const BOX_W = 170;
const BOX_H = 30;
const GAP_X = 60;
const GAP_Y = 14;

export function JobGraphPicture({ tenant, jobs }: { tenant: string; jobs: GraphJob[] }) {
  if (jobs.length === 0) {
    return <p className="empty">No job runs here.</p>;
  }
  const byName = new Map(jobs.map((job) => [job.name, job]));
  const depth = new Map<string, number>();
  const depthOf = (name: string, seen: Set<string>): number => {
    const known = depth.get(name);
    if (known !== undefined) {
      return known;
    }
    const job = byName.get(name);
    if (job === undefined || seen.has(name)) {
      return 0;
    }
    seen.add(name);
    const d = job.dependencies.reduce(
      (max, dep) => Math.max(max, byName.has(dep.name) ? depthOf(dep.name, seen) + 1 : 0),
      0,
    );
    depth.set(name, d);
    return d;
  };
  jobs.forEach((job) => depthOf(job.name, new Set()));
  const columns: string[][] = [];
  for (const job of jobs) {
    const d = depth.get(job.name) ?? 0;
    (columns[d] ??= []).push(job.name);
  }
  const position = new Map<string, { x: number; y: number }>();
  columns.forEach((column, c) =>
    column.forEach((name, r) => position.set(name, { x: c * (BOX_W + GAP_X), y: r * (BOX_H + GAP_Y) })),
  );
  const width = columns.length * (BOX_W + GAP_X) - GAP_X;
  const height = Math.max(...columns.map((c) => c.length)) * (BOX_H + GAP_Y) - GAP_Y;
  return (
    <figure className="graph">
      {/* Drawn at its own size (narrower windows scale it down): text stays at body size. */}
      <svg
        viewBox={`-2 -2 ${width + 4} ${height + 4}`}
        width={width + 4}
        height={height + 4}
        role="img"
        aria-label="Job graph"
      >
        {jobs.flatMap((job) =>
          job.dependencies
            .filter((dep) => position.has(dep.name))
            .map((dep) => {
              const from = position.get(dep.name) ?? { x: 0, y: 0 };
              const to = position.get(job.name) ?? { x: 0, y: 0 };
              const x1 = from.x + BOX_W;
              const y1 = from.y + BOX_H / 2;
              const x2 = to.x;
              const y2 = to.y + BOX_H / 2;
              return (
                <path
                  key={`${dep.name}->${job.name}`}
                  className={`edge${dep.soft ? ' soft' : ''}`}
                  d={`M${x1},${y1} C${x1 + GAP_X / 2},${y1} ${x2 - GAP_X / 2},${y2} ${x2},${y2}`}
                />
              );
            }),
        )}
        {jobs.map((job) => {
          const p = position.get(job.name) ?? { x: 0, y: 0 };
          return (
            <g className="node" key={job.name} transform={`translate(${p.x},${p.y})`}>
              <rect width={BOX_W} height={BOX_H} rx={5} />
              <text x={8} y={19}>
                {job.name.length > 24 ? `${job.name.slice(0, 23)}…` : job.name}
                {job.voting ? '' : ' (nv)'}
              </text>
            </g>
          );
        })}
      </svg>
      <figcaption className="muted small">
        Jobs:{' '}
        {jobs.map((job, i) => (
          <span key={job.name}>
            {i > 0 && ', '}
            <Link href={tenantPath(tenant, `job/${encodeURIComponent(job.name)}`)}>{job.name}</Link>
          </span>
        ))}
        . Dashed arrows are soft dependencies.
      </figcaption>
    </figure>
  );
}
