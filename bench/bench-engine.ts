/**
 * The engine of a benchmark: tenant `bench` with the given layout over a bench database, with the
 * scripted neighbours of the engine tests (test/engine/): an in-memory change source, a merger
 * that always merges, a scripted executor and nodes provided at once.
 */
import { Engine } from '../src/engine/engine';
import { InProcessEventBus } from '../src/engine/event-bus';
import type { EngineLayout } from '../src/engine/ports/layout';
import type { Database } from '../src/store/database';
import { FakeChanges } from '../test/engine/fake-changes';
import { InstantNodes, ScriptedExecutor, ScriptedMerger } from '../test/engine/scripted-gateways';

export interface BenchEngine {
  engine: Engine;
  changes: FakeChanges;
  executor: ScriptedExecutor;
}

export async function startBenchEngine(database: Database, layout: EngineLayout, bus = new InProcessEventBus()) {
  const changes = new FakeChanges();
  const executor = new ScriptedExecutor({ now: () => new Date() });
  const nodes = new InstantNodes();
  const engine = new Engine({
    database,
    layouts: (tenant) => (tenant === 'bench' ? layout : null),
    gateways: { changes, merger: new ScriptedMerger(changes), executor, nodes },
    bus,
    clock: { now: () => new Date() },
    pollIntervalMs: 1000,
    batchSize: 200,
    logger: { error: (message, error) => console.error(message, error) },
  });
  executor.sink = (tenant, event) => engine.submitResult(tenant, event);
  nodes.sink = (tenant, event) => engine.submitResult(tenant, event);
  await engine.startTenant('bench');
  return { engine, changes, executor } satisfies BenchEngine;
}
