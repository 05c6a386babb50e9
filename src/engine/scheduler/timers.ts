/** Timer pipelines: fire times that passed become `timer` trigger events. */
import type { TenantEngineRecord } from '../../store/repositories/engine-state';
import { cronFireTimes, parseCron } from '../../model/cron';
import type { PassContext } from '../pass-context';
import type { EngineLayout } from '../ports/layout';

/** Write one `timer` trigger event per project and fire time that passed; the record keeps each timer's last fire time. */
export async function fireTimers(ctx: PassContext, layout: EngineLayout, record: TenantEngineRecord): Promise<void> {
  for (const pipeline of layout.pipelines) {
    for (const trigger of pipeline.triggers) {
      if (trigger.time === undefined) {
        continue;
      }
      const key = `${pipeline.name} ${trigger.time}`;
      const last = record.timerState[key];
      if (last === undefined) {
        record.timerState[key] = ctx.nowIso();
        continue;
      }
      const fired = cronFireTimes(parseCron(trigger.time), new Date(last), ctx.now, 1000);
      if (fired.length === 0) {
        continue;
      }
      record.timerState[key] = fired[fired.length - 1].toISOString();
      for (const project of layout.projects.values()) {
        if (!layout.projectInPipeline(pipeline.name, project.canonicalName)) {
          continue;
        }
        await ctx.emit({
          type: 'timer',
          project: project.canonicalName,
          pipeline: pipeline.name,
          branch: project.defaultBranch,
          ref: `refs/heads/${project.defaultBranch}`,
          timestamp: fired[fired.length - 1].toISOString(),
        });
      }
    }
  }
}
