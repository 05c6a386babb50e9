/** The store's one mapping from snake_case columns to camelCase record fields (src/store/row-fields.ts). */
import { columnOf, pickFields } from '../../../src/store/row-fields';

describe('row fields', () => {
  it('names a field after its column in camel case', () => {
    expect(columnOf('buildsetId')).toBe('buildset_id');
    expect(columnOf('holdRequestId')).toBe('hold_request_id');
    expect(columnOf('md5sum')).toBe('md5sum');
    expect(columnOf('uuid')).toBe('uuid');
  });

  it('picks only the fields asked for, in their order, with their values as they are', () => {
    const when = new Date(0);
    const row = { id: '7', job_name: 'unit', start_time: when, log_url: null, extra_column: 1 };
    const record = pickFields(row, ['jobName', 'id', 'startTime', 'logUrl']);
    expect(Object.keys(record)).toEqual(['jobName', 'id', 'startTime', 'logUrl']);
    expect(record).toEqual({ jobName: 'unit', id: '7', startTime: when, logUrl: null });
    expect(record.startTime).toBe(when);
    // A converted field overridden after the pick keeps its place.
    expect(Object.keys({ ...record, id: Number(row.id) })).toEqual(['jobName', 'id', 'startTime', 'logUrl']);
  });
});
