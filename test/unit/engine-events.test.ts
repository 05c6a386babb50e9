import { categorise, parseEngineEvent, type EngineEvent } from '../../src/model/engine-events';

describe('engine event union', () => {
  it('joins the row type to the payload and strips what the engine does not read', () => {
    const parsed = parseEngineEvent('result', 'build-started', {
      buildUuid: 'b1',
      startTime: '2026-01-01T00:00:00.000Z',
      logUrl: null,
      worker: 'host:1:abc',
      tenant: 't',
    });
    expect(parsed).toEqual({
      ok: true,
      value: {
        category: 'result',
        event: { type: 'build-started', buildUuid: 'b1', startTime: '2026-01-01T00:00:00.000Z', logUrl: null },
      },
    });
  });

  it('keeps the launcher fields of provisioned nodes', () => {
    const parsed = parseEngineEvent('result', 'nodes-provisioned', {
      requestId: 'r1',
      fulfilled: true,
      nodes: [{ id: 'n1', label: 'small', connectionType: 'ssh', hostKeys: ['k'] }],
    });
    expect(parsed.ok && parsed.value.event).toMatchObject({
      nodes: [{ id: 'n1', label: 'small', connectionType: 'ssh', hostKeys: ['k'] }],
    });
  });

  it('refuses a payload that is not an object, a wrong field and a type of another category', () => {
    expect(parseEngineEvent('management', 'promote', 'text')).toEqual({
      ok: false,
      error: 'invalid promote event: pipeline: Invalid input: expected string, received undefined',
    });
    expect(parseEngineEvent('management', 'promote', { pipeline: 'gate', changes: [1], by: null })).toEqual({
      ok: false,
      error: 'invalid promote event: changes.0: Invalid input: expected string, received number',
    });
    expect(parseEngineEvent('management', 'timer', { project: 'p' })).toEqual({
      ok: false,
      error: 'invalid timer event: not a management event',
    });
    expect(parseEngineEvent('trigger', 'no-such-event', { project: 'p' }).ok).toBe(false);
  });

  it('names the category of every event type', () => {
    const events: EngineEvent[] = [
      { type: 'ref-updated', project: 'p', ref: 'refs/heads/main' },
      { type: 'reconfigure' },
      {
        type: 'supercede',
        pipeline: 'check',
        by: 'gate',
        change: { project: 'p', number: 1, patchset: '1', ref: 'r', oldrev: null, newrev: null },
      },
      { type: 'nodes-provisioned', requestId: 'r', fulfilled: false, nodes: [] },
    ];
    expect(events.map((event) => categorise(event).category)).toEqual([
      'trigger',
      'management',
      'management',
      'result',
    ]);
  });
});
