/**
 * The dashboard's live lists (web/src/api/live-list.ts): a page of nodes or nodeset requests
 * follows `nodeEvents` / `nodesetRequestEvents` — the page replaces the list, a change replaces,
 * removes or places one record, and the page never grows past its size.
 */
import { applyListEvent, type LiveListState } from '../../../web/src/api/live-list';

interface Row {
  uuid: string;
  databaseId: number;
  state: string;
}

const row = (id: number, state = 'READY'): Row => ({ uuid: `n${id}`, databaseId: id, state });
const ids = (state: LiveListState<Row>): number[] => state.records.map((record) => record.databaseId);
const FIRST_PAGE = { first: 3, offset: 0 };
const SECOND_PAGE = { first: 3, offset: 3 };

describe('applyListEvent', () => {
  const page: LiveListState<Row> = { records: [row(9), row(7), row(5)], totalCount: 6 };

  it('takes the page of a snapshot as the list, before and after changes', () => {
    expect(applyListEvent(undefined, { kind: 'snapshot', records: [row(2)], totalCount: 1 }, FIRST_PAGE)).toEqual({
      records: [row(2)],
      totalCount: 1,
    });
    expect(ids(applyListEvent(page, { kind: 'snapshot', records: [row(4)], totalCount: 9 }, FIRST_PAGE))).toEqual([4]);
  });

  it('replaces a record it shows in place, keeping the other objects', () => {
    const next = applyListEvent(
      page,
      { kind: 'change', uuid: 'n7', record: row(7, 'HOLD'), totalCount: 6 },
      FIRST_PAGE,
    );
    expect(next.records.map((record) => record.state)).toEqual(['READY', 'HOLD', 'READY']);
    expect(next.records[0]).toBe(page.records[0]);
    expect(next.records[2]).toBe(page.records[2]);
  });

  it('removes a record that is gone or left the filter, with the new total', () => {
    const next = applyListEvent(page, { kind: 'change', uuid: 'n7', record: null, totalCount: 5 }, FIRST_PAGE);
    expect(ids(next)).toEqual([9, 5]);
    expect(next.totalCount).toBe(5);
    // Removing a record the page does not show changes only the total.
    const same = applyListEvent(page, { kind: 'change', uuid: 'n1', record: null, totalCount: 5 }, FIRST_PAGE);
    expect(same.records).toBe(page.records);
  });

  it('puts a new record at the top of the first page and keeps the page size', () => {
    const next = applyListEvent(page, { kind: 'change', uuid: 'n10', record: row(10), totalCount: 7 }, FIRST_PAGE);
    expect(ids(next)).toEqual([10, 9, 7]);
    expect(next.totalCount).toBe(7);
  });

  it('places a record between the ones it shows by id, and ignores one that belongs to another page', () => {
    expect(
      ids(applyListEvent(page, { kind: 'change', uuid: 'n6', record: row(6), totalCount: 7 }, FIRST_PAGE)),
    ).toEqual([9, 7, 6]);
    const second: LiveListState<Row> = { records: [row(4), row(3), row(1)], totalCount: 6 };
    expect(
      ids(applyListEvent(second, { kind: 'change', uuid: 'n2', record: row(2), totalCount: 7 }, SECOND_PAGE)),
    ).toEqual([4, 3, 2]);
    // Newer than the page: it belongs to an earlier page.
    const newer = applyListEvent(second, { kind: 'change', uuid: 'n10', record: row(10), totalCount: 7 }, SECOND_PAGE);
    expect(ids(newer)).toEqual([4, 3, 1]);
    expect(newer.totalCount).toBe(7);
  });

  it('fills a short first page with any record', () => {
    const short: LiveListState<Row> = { records: [row(5)], totalCount: 1 };
    expect(
      ids(applyListEvent(short, { kind: 'change', uuid: 'n2', record: row(2), totalCount: 2 }, FIRST_PAGE)),
    ).toEqual([5, 2]);
  });
});
