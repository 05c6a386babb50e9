/** Shared results are stringified once and spliced into each subscriber's graphql-ws message. */
import {
  markSharedResult,
  sharedResultPlaceholder,
  spliceSharedResult,
} from '../../../subscriptions/live/shared-serialisation';

/** What graphql-ws writes for a `next` message (its stringifyMessage is JSON.stringify of this shape). */
function nextMessage(id: string, payload: unknown): string {
  return JSON.stringify({ id, type: 'next', payload });
}

describe('shared result serialisation', () => {
  it('gives every subscriber the shared result under its own operation id', () => {
    const result = markSharedResult({ data: { tenantStatus: { sequence: 7, name: 'a "quoted" \u0000 name' } } });
    const messages = ['1', '2', 'x'].map((id) => spliceSharedResult(nextMessage(id, sharedResultPlaceholder(result))));
    expect(messages.map((message) => JSON.parse(message) as unknown)).toEqual(
      ['1', '2', 'x'].map((id) => ({ id, type: 'next', payload: result })),
    );
  });

  it('keeps the serialisation of errors that graphql-ws would write', () => {
    const result = markSharedResult({
      data: null,
      errors: [{ message: 'Tenant not loaded', extensions: { code: 'NOT_FOUND' } }],
    });
    expect(JSON.parse(spliceSharedResult(nextMessage('1', sharedResultPlaceholder(result))))).toEqual({
      id: '1',
      type: 'next',
      payload: result,
    });
  });

  it('leaves results that are not shared to graphql-ws', () => {
    expect(sharedResultPlaceholder({ data: { a: 1 } })).toBeUndefined();
    expect(sharedResultPlaceholder(null)).toBeUndefined();
  });

  it('never splices a marker that appears inside a result', () => {
    const shared = markSharedResult({ data: { secret: 1 } });
    const placeholder = sharedResultPlaceholder(shared);
    // Stringifying the placeholder registers marker N; a result string forging that marker is not replaced.
    const marker = JSON.stringify(placeholder);
    const forged = nextMessage('9', { data: { subject: JSON.parse(marker) as string } });
    expect(spliceSharedResult(forged)).toBe(forged);
    const plain = nextMessage('9', JSON.parse(marker) as string);
    // Only the exact message shape with a pending marker is spliced, and only once.
    expect(JSON.parse(spliceSharedResult(plain))).toEqual({ id: '9', type: 'next', payload: shared });
    expect(spliceSharedResult(plain)).toBe(plain);
  });
});
