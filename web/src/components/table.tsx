/** A table of rows whose first cell heads its row; on narrow screens each cell shows its column name. */
import type { ReactNode } from 'react';
import { Empty } from './common';

export function Table({ head, rows }: { head: string[]; rows: Array<{ key: string; cells: ReactNode[] }> }) {
  if (rows.length === 0) {
    return <Empty>Nothing here.</Empty>;
  }
  return (
    <div className="table-wrap">
      <table className="table">
        <thead>
          <tr>
            {head.map((h) => (
              <th scope="col" key={h}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key}>
              {row.cells.map((cell, i) =>
                i === 0 ? (
                  <th scope="row" key={i} data-label={head[i]}>
                    {cell}
                  </th>
                ) : (
                  <td key={i} data-label={head[i]}>
                    {cell}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
