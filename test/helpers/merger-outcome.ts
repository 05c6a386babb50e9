/** The successful outcome of a merger preparation, or a thrown error naming the failure. */
import type { PrepareOutcome } from '../../src/executor/merger';

export function expectOk(outcome: PrepareOutcome): Extract<PrepareOutcome, { ok: true }> {
  if (!outcome.ok) {
    throw new Error(`expected a successful merge, got ${outcome.result}: ${outcome.detail}`);
  }
  return outcome;
}
