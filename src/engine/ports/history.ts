/** The build-history port: the SQL reporter's writes (docs/gating.md#build-history). */
import type { GateResetCauseKind } from '../../model/gate-resets';
import type { BuildsetResult } from '../../model/results';
import type { BuildCompletion } from '../../store/repositories/history-batches';
import type { NewRef } from '../../store/repositories/refs';

/** The ref a buildset or build is recorded for (every field given). */
export type HistoryRef = Required<NewRef>;

export interface BuildHistoryWriter {
  /**
   * Buildset start: returns the row id. `refsWritten` is given the ids of its refs (in the order
   * given) once they are written: at once, or at `flush` when the writer collects writes
   * (docs/gating.md#build-history).
   */
  createBuildset(
    input: {
      uuid: string;
      tenant: string;
      pipeline: string;
      eventId: string | null;
      eventTimestamp: Date | null;
      refs: HistoryRef[];
      triggeredBy: string;
      at: Date;
    },
    refsWritten?: (refIds: number[]) => void,
  ): Promise<number>;
  finishBuildset(
    buildsetId: number,
    input: { result: BuildsetResult; message: string | null; at: Date },
  ): Promise<void>;
  startBuild(input: {
    buildsetId: number;
    uuid: string;
    jobName: string;
    startTime: Date;
    voting: boolean;
    nodeset: string | null;
    /** The build's ref, when the buildset's refs are written (else null). */
    refId: number | null;
    /**
     * Which of the buildset's refs (their order at its creation) the build ran for: its ref when
     * the buildset's refs are not written yet (the first when there is no such).
     */
    refIndex: number;
    attempt: number;
  }): Promise<number>;
  completeBuild(buildId: number, input: BuildCompletion): Promise<void>;
  /**
   * A `paused` or `resumed` event of a started build (docs/gating.md#build-history); a pause also
   * records the data the build returned so far.
   */
  buildEvent(
    buildId: number,
    input: { eventType: 'paused' | 'resumed' | 'flaky-retry'; eventTime: Date; resultData?: Record<string, unknown> },
  ): Promise<void>;
  /**
   * Write what the writer collected (docs/gating.md#performance); before anything reads the rows
   * written or what they roll up, and before the pass commits.
   */
  flush(): Promise<void>;
  /** An item reset, with its cause (docs/analytics.md#gate-resets). */
  recordGateReset(input: {
    tenant: string;
    pipeline: string;
    project: string;
    itemUuid: string;
    cause: GateResetCauseKind;
    causedBy: string | null;
    at: Date;
  }): Promise<void>;
}
