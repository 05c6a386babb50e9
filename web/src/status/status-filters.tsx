/** The status page's filters, kept in the URL (`?project=&pipeline=&change=&mine=1`). */
import { useEffect, useState } from 'react';
import { useUrlParams } from '../url';
import type { ItemStatus } from './status-store';

export type ItemMatcher = (item: ItemStatus) => boolean;

export function itemMatcher(filter: { project: string; change: string; owner: string | null }): ItemMatcher {
  const project = filter.project.toLowerCase();
  const change = filter.change.trim();
  return (item) =>
    item.refs.some(
      (ref) =>
        (project === '' || ref.project.toLowerCase().includes(project)) &&
        (change === '' || ref.id === change || ref.id.split(',')[0] === change) &&
        (filter.owner === null || ref.owner === filter.owner),
    );
}

/** `pipelines`: the pipeline choice, or null on a one-pipeline page. */
export function StatusFilters({ pipelines, signedIn }: { pipelines: string[] | null; signedIn: boolean }) {
  const params = useUrlParams();
  const [project, setProject] = useState(params.get('project') ?? '');
  const [change, setChange] = useState(params.get('change') ?? '');
  useEffect(() => {
    setProject(params.get('project') ?? '');
    setChange(params.get('change') ?? '');
  }, [params]);
  return (
    <form
      className="filters"
      role="search"
      onSubmit={(event) => {
        event.preventDefault();
        params.set({ project, change });
      }}
    >
      <label>
        Project
        <input value={project} onChange={(e) => setProject(e.target.value)} placeholder="any" />
      </label>
      <label>
        Change
        <input
          value={change}
          onChange={(e) => setChange(e.target.value)}
          placeholder="e.g. 12 or 12,1"
          inputMode="numeric"
        />
      </label>
      {pipelines !== null && (
        <label>
          Pipeline
          <select value={params.get('pipeline') ?? ''} onChange={(e) => params.set({ pipeline: e.target.value })}>
            <option value="">all</option>
            {pipelines.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
      )}
      {signedIn && (
        <label className="checkbox">
          <input
            type="checkbox"
            checked={params.get('mine') === '1'}
            onChange={(e) => params.set({ mine: e.target.checked ? '1' : null })}
          />
          My changes
        </label>
      )}
      <button type="submit">Filter</button>
      {(params.get('project') || params.get('change') || params.get('pipeline') || params.get('mine')) && (
        <button type="button" onClick={() => params.set({ project: null, change: null, pipeline: null, mine: null })}>
          Clear
        </button>
      )}
    </form>
  );
}
