/**
 * The pipeline / project / branch / job form of the freeze-job and runtime pages (the reference's
 * "freeze job toolbar"): its values live in the URL, so a filled form is a link.
 */
import { useEffect, useState } from 'react';
import { useUrlParams } from '../url';

export interface JobPick {
  pipeline: string;
  project: string;
  branch: string;
  job: string;
}

/** `jobParam`: the URL parameter of the job (`job` on freeze-job, `job_name` on runtime). */
export function useJobPick(jobParam: string): JobPick {
  const params = useUrlParams();
  return {
    pipeline: params.get('pipeline') ?? '',
    project: params.get('project') ?? '',
    branch: params.get('branch') ?? '',
    job: params.get(jobParam) ?? '',
  };
}

export function JobPicker({ jobParam, button }: { jobParam: string; button: string }) {
  const params = useUrlParams();
  const current = useJobPick(jobParam);
  const [draft, setDraft] = useState(current);
  const key = JSON.stringify(current);
  useEffect(() => setDraft(JSON.parse(key) as JobPick), [key]);
  const field = (name: keyof JobPick, label: string, placeholder: string, required: boolean) => (
    <label>
      {label}
      <input
        required={required}
        value={draft[name]}
        placeholder={placeholder}
        onChange={(e) => setDraft({ ...draft, [name]: e.target.value })}
      />
    </label>
  );
  return (
    <form
      className="filters"
      aria-label="Which job"
      onSubmit={(event) => {
        event.preventDefault();
        params.set({
          pipeline: draft.pipeline.trim(),
          project: draft.project.trim(),
          branch: draft.branch.trim(),
          [jobParam]: draft.job.trim(),
        });
      }}
    >
      {field('pipeline', 'Pipeline', 'e.g. check', true)}
      {field('project', 'Project', 'e.g. org/project', true)}
      {field('branch', 'Branch', 'default branch', false)}
      {field('job', 'Job', 'job name', true)}
      <button type="submit">{button}</button>
    </form>
  );
}
