/** `GET T/build-times` (current shape only; docs/rest.md#build-times). */
import { RestBuildTimesDocument } from '../generated/graphql';
import { arrayOf, bool, int, isoNaive as isoNaiveSchema, nullable, num, object, str } from '../json-schema';
import type { RestRoute } from '../route';
import { isoNaive, orNotFound } from '../wire';
import { buildResults, isoTime, paging, single, text, trueOrOther } from './params';

export const buildTimeSchema = object({
  _id: int(),
  uuid: str(),
  job_name: str(),
  result: str(),
  start_time: nullable(isoNaiveSchema()),
  end_time: isoNaiveSchema(),
  duration: nullable(num('Seconds')),
  final: bool(),
  project: nullable(str()),
  branch: nullable(str()),
  pipeline: str(),
  ref: nullable(str()),
});

export const buildTimesRoute: RestRoute = {
  name: 'build_times',
  pattern: 'tenant/{tenant_name}/build-times',
  endpoints: {
    GET: {
      summary: 'Durations of finished builds, latest end time first',
      auth: 'public',
      operations: ['RestBuildTimes'],
      query: {
        current: {
          project: text('Project (exact)'),
          pipeline: text('Pipeline (exact)'),
          branch: text('Branch (exact)'),
          ref: text('Git ref (exact)'),
          job_name: text('Job name (exact)'),
          final: trueOrOther('true: final builds; any other value: retried builds'),
          start_time: single('Builds that ended at or after this ISO time'),
          end_time: single('Builds that ended at or before this ISO time'),
          exclude_result: text('Not these results'),
          ...paging,
        },
      },
      responses: { current: { status: 200, schema: arrayOf(buildTimeSchema), description: 'Build time records' } },
      errors: { 400: 'Bad query parameter', 404: 'Tenant not found' },
      handler: async (req) => {
        const q = req.query;
        const data = await req.run(RestBuildTimesDocument, {
          tenant: req.params.tenant_name,
          filter: {
            project: q.strings('project'),
            pipeline: q.strings('pipeline'),
            branch: q.strings('branch'),
            ref: q.strings('ref'),
            jobName: q.strings('job_name'),
            final: q.boolean('final'),
            endTimeMin: isoTime('start_time', q.string('start_time')),
            endTimeMax: isoTime('end_time', q.string('end_time')),
            excludeResult: buildResults('exclude_result', q.strings('exclude_result')),
          },
          first: q.integer('limit'),
          offset: q.integer('skip'),
        });
        const times = orNotFound(data.tenant, 'Tenant not found').buildTimes.nodes;
        return {
          body: times.map((time) => ({
            _id: time.databaseId,
            uuid: time.uuid,
            job_name: time.jobName,
            result: time.result,
            start_time: isoNaive(time.startTime),
            end_time: isoNaive(time.endTime),
            duration: time.duration,
            final: time.final,
            project: time.project,
            branch: time.branch,
            pipeline: time.pipeline,
            ref: time.ref,
          })),
        };
      },
    },
  },
};
