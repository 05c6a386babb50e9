/** Display helpers: durations, times, result colours. */

/** "1 h 2 min", "3 min 4 s", "5 s" from milliseconds. */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) {
    return '';
  }
  const seconds = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  if (h > 0) {
    return `${h} h ${m} min`;
  }
  if (m > 0) {
    return `${m} min ${s} s`;
  }
  return `${s} s`;
}

/** Local date and time, to the second. */
export function formatTime(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') {
    return '';
  }
  const date = new Date(value);
  return Number.isNaN(date.getTime())
    ? ''
    : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

export type Tone = 'good' | 'bad' | 'warn' | 'info' | 'muted';

/** The colour family of a build or buildset result (or of a state while there is none). */
export function resultTone(result: string | null | undefined): Tone {
  switch (result) {
    case 'SUCCESS':
      return 'good';
    case 'FAILURE':
    case 'ERROR':
    case 'TIMED_OUT':
    case 'POST_FAILURE':
    case 'RETRY_LIMIT':
    case 'NODE_FAILURE':
    case 'DISK_FULL':
    case 'MERGE_CONFLICT':
    case 'MERGER_FAILURE':
    case 'MERGE_FAILURE':
    case 'CONFIG_ERROR':
      return 'bad';
    case 'SKIPPED':
    case 'CANCELED':
    case 'ABORTED':
    case 'DEQUEUED':
    case 'NO_JOBS':
      return 'muted';
    case 'RETRY':
      return 'warn';
    default:
      return 'info';
  }
}

/** A ref as people name it: "change 12,3", "master", "refs/tags/v1". */
export function refLabel(ref: {
  change?: number | null;
  patchset?: string | null;
  branch?: string | null;
  ref?: string | null;
  newrev?: string | null;
}): string {
  if (ref.change !== null && ref.change !== undefined) {
    return ref.patchset ? `${ref.change},${ref.patchset}` : String(ref.change);
  }
  return ref.branch ?? ref.ref ?? ref.newrev?.slice(0, 10) ?? '';
}
