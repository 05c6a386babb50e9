/**
 * A pass's calls after its commit (docs/gating.md#performance): calls of one kind made one after
 * another are made at the same time, in one side effect; any other call between keeps the order;
 * a try again makes only the calls that failed.
 */
import type { Knex } from 'knex';
import { PassContext, type EngineGateways } from '../../src/engine/pass-context';
import type { EngineLayout } from '../../src/engine/ports/layout';

function context(): PassContext {
  // Nothing here touches the store: the transaction is never used.
  return new PassContext(
    'tenant',
    new Date('2026-01-01T00:00:00Z'),
    {} as EngineLayout,
    {} as Knex.Transaction,
    {} as EngineGateways,
  );
}

/** A call that records when it starts and answers when told. */
function heldCall(log: string[], name: string) {
  let answer: (error?: Error) => void = () => undefined;
  const call = jest.fn(
    () =>
      new Promise<void>((resolve, reject) => {
        log.push(`start ${name}`);
        answer = (error) => (error ? reject(error) : resolve());
      }),
  );
  return { call, answer: (error?: Error) => answer(error) };
}

describe('calls after a commit made together', () => {
  it('joins consecutive calls of one kind; another call between starts a new side effect', () => {
    const ctx = context();
    const noop = () => Promise.resolve();
    ctx.after(noop, 'request-nodes');
    ctx.after(noop, 'request-nodes');
    ctx.after(noop);
    ctx.after(noop, 'request-nodes');
    ctx.after(noop, 'start-build');
    ctx.after(noop, 'start-build');
    expect(ctx.afterCommit).toHaveLength(4);
  });

  it('makes the calls at the same time and is done once all answered', async () => {
    const ctx = context();
    const log: string[] = [];
    const first = heldCall(log, 'a');
    const second = heldCall(log, 'b');
    ctx.after(first.call, 'request-nodes');
    ctx.after(second.call, 'request-nodes');
    let done = false;
    const running = ctx.afterCommit[0]().then(() => {
      done = true;
    });
    expect(log).toEqual(['start a', 'start b']);
    first.answer();
    await Promise.resolve();
    expect(done).toBe(false);
    second.answer();
    await running;
    expect(done).toBe(true);
  });

  it('fails with the first error, and a try again makes only the calls that failed', async () => {
    const ctx = context();
    const log: string[] = [];
    const ok = jest.fn(() => Promise.resolve());
    let failures = 1;
    const flaky = jest.fn(() => {
      log.push('flaky');
      if (failures > 0) {
        failures -= 1;
        return Promise.reject(new Error('store away'));
      }
      return Promise.resolve();
    });
    ctx.after(ok, 'start-build');
    ctx.after(flaky, 'start-build');
    await expect(ctx.afterCommit[0]()).rejects.toThrow('store away');
    await ctx.afterCommit[0]();
    expect(ok).toHaveBeenCalledTimes(1);
    expect(flaky).toHaveBeenCalledTimes(2);
    // Nothing left to make: a further try makes no call.
    await ctx.afterCommit[0]();
    expect(ok).toHaveBeenCalledTimes(1);
    expect(flaky).toHaveBeenCalledTimes(2);
  });
});
