/**
 * The rows of a pass's history statement as its JSON parameters, and what one statement cannot
 * hold together (./history-statement.ts).
 */
import type { HistoryBatch } from './history-statement';
import { toNewRefRow, type RefRow } from './refs';

/** The batch's rows as the statement's JSON parameters (refs numbered by first occurrence). */
export function historyParameters(batch: Required<HistoryBatch>) {
  const refs: Array<{ k: number } & Omit<RefRow, 'id'>> = [];
  const numbers = new Map<string, number>();
  const refNumbers = batch.creations.map((creation) =>
    creation.refs.map((ref) => {
      const row = toNewRefRow(ref);
      const key = JSON.stringify([row.project_canonical, row.ref, row.change, row.patchset, row.oldrev, row.newrev]);
      let k = numbers.get(key);
      if (k === undefined) {
        k = refs.length;
        numbers.set(key, k);
        refs.push({ k, ...row });
      }
      return k;
    }),
  );
  const links = batch.creations.flatMap((creation, index) =>
    [...new Set(refNumbers[index])].map((k) => ({ buildset_id: creation.id, k })),
  );
  const buildsets = batch.creations.map((creation, order) => ({
    ord: order,
    id: creation.id,
    uuid: creation.uuid,
    tenant: creation.tenant,
    pipeline: creation.pipeline,
    event_id: creation.eventId ?? null,
    event_timestamp: creation.eventTimestamp?.toISOString() ?? null,
    at: creation.at.toISOString(),
    triggered_by: creation.triggeredBy,
  }));
  const starts = batch.starts.map((start, order) => {
    const numbered = start.refOf === undefined ? undefined : refNumbers[start.refOf.creation];
    return {
      ord: order,
      id: start.id,
      buildset_id: start.buildsetId,
      uuid: start.uuid,
      job_name: start.jobName,
      start_time: start.startTime.toISOString(),
      voting: start.voting,
      nodeset: start.nodeset,
      ref_id: numbered === undefined ? start.refId : null,
      ref_k: numbered === undefined ? null : (numbered[start.refOf?.index ?? 0] ?? numbered[0] ?? null),
      attempt: start.attempt,
    };
  });
  const completions = batch.completions.map((done) => ({
    id: done.id,
    result: done.result,
    end_time: done.endTime.toISOString(),
    error_detail: done.errorDetail,
    log_url: done.logUrl,
    final: done.final,
    held: done.held,
    clears: Object.keys(done.resultData).length === 0,
  }));
  const artifacts = batch.completions.flatMap((done) =>
    done.artifacts.map((artifact) => ({
      build_id: done.id,
      name: artifact.name,
      url: artifact.url,
      metadata: artifact.metadata ?? undefined,
    })),
  );
  const provides = batch.completions.flatMap((done) => done.provides.map((name) => ({ build_id: done.id, name })));
  const data = batch.completions
    .filter((done) => Object.keys(done.resultData).length > 0)
    .map((done) => ({ build_id: done.id, data: done.resultData }));
  const finishes = batch.finishes.map((finish) => ({
    id: finish.id,
    result: finish.result,
    message: finish.message,
    at: finish.at.toISOString(),
  }));
  const numbered = <T>(rows: T[]) => JSON.stringify(rows.map((row, ord) => ({ ord, ...row })));
  return {
    refs,
    refNumbers,
    json: {
      refs: JSON.stringify(refs),
      buildsets: JSON.stringify(buildsets),
      starts: JSON.stringify(starts),
      completions: JSON.stringify(completions),
      finishes: JSON.stringify(finishes),
      links: JSON.stringify(links),
      artifacts: numbered(artifacts),
      provides: numbered(provides),
      data: numbered(data),
    },
  };
}

/** What the batch may not hold together (module comment); the first such row, described. */
export function unfoldable(batch: Required<HistoryBatch>): string | null {
  const started = new Set(batch.starts.map((start) => start.id));
  const created = new Set(batch.creations.map((creation) => creation.id));
  const completed = new Set<number>();
  for (const done of batch.completions) {
    if (started.has(done.id) || completed.has(done.id)) {
      return `build ${done.id} is started or completed again in the same statement`;
    }
    completed.add(done.id);
  }
  const finished = new Set<number>();
  for (const finish of batch.finishes) {
    if (created.has(finish.id) || finished.has(finish.id)) {
      return `buildset ${finish.id} is created or finished again in the same statement`;
    }
    finished.add(finish.id);
  }
  return null;
}
