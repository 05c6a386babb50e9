/** Runs an admin mutation and turns every outcome into one sentence for the page. */
import { request, RequestError, type Document } from '../api/client';
import { describeError, describeTypedError } from '../api/errors';

export interface ActionOutcome {
  ok: boolean;
  message: string;
  /** The queued management event (`ManagementEventAccepted.eventId`) of an accepted request. */
  eventId?: number;
}

type Payload = { __typename: string; message?: string; field?: string | null; eventId?: number } | null;

/** `pick` returns the mutation's payload; a payload implementing Error is a typed failure. */
export async function runAction<R, V>(
  document: Document<R, V>,
  variables: V,
  pick: (data: R) => Payload,
  success: string,
): Promise<ActionOutcome> {
  try {
    const payload = pick(await request(document, variables));
    if (payload === null) {
      return { ok: false, message: 'The server returned no result.' };
    }
    if (payload.__typename.endsWith('Error')) {
      return { ok: false, message: describeTypedError(payload) };
    }
    return { ok: true, message: success, eventId: payload.eventId };
  } catch (err) {
    return { ok: false, message: describeError(err instanceof Error ? err : new RequestError(String(err))) };
  }
}
