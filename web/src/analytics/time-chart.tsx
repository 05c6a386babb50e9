/**
 * A time series chart of the analytics page (uPlot on a canvas, UTC time axis) with its numbers:
 * the legend shows each series' value at the pointer, and "Data" opens the same numbers as a
 * table (what a screen reader reads, and what can be copied).
 */
import { useEffect, useId, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface ChartSeries {
  label: string;
  /** One value per bucket (null: nothing to show). */
  values: Array<number | null>;
  color: string;
  kind?: 'line' | 'bar';
  dash?: boolean;
}

export interface TimeChartProps {
  title: string;
  /** Bucket starts, epoch ms. */
  starts: number[];
  /** Bucket length, ms (the table's labels and the bar width). */
  step: number;
  series: ChartSeries[];
  /** A value as text (legend, table and axis). */
  format: (value: number) => string;
  /** A value on the axis (`format` when absent). */
  axisFormat?: (value: number) => string;
  /** Bars stacked on one another (their values stay their own in the legend and the table). */
  stacked?: boolean;
  /** A sentence under the chart. */
  note?: string;
}

/** A bucket's start as UTC text: the hour for hourly buckets, the day otherwise. */
export function bucketLabel(start: number, step: number): string {
  const iso = new Date(start).toISOString();
  return step < 86_400_000 ? `${iso.slice(0, 10)} ${iso.slice(11, 16)}` : iso.slice(0, 10);
}

function cssVar(element: Element, name: string, fallback: string): string {
  return getComputedStyle(element).getPropertyValue(name).trim() || fallback;
}

/** Cumulative sums of the series (each bar drawn from 0 to its sum, the later ones behind). */
function stack(series: ChartSeries[]): Array<Array<number | null>> {
  const sums: Array<Array<number | null>> = [];
  let running: number[] = series[0]?.values.map(() => 0) ?? [];
  for (const s of series) {
    running = running.map((total, i) => total + (s.values[i] ?? 0));
    sums.push([...running]);
  }
  return sums;
}

export function TimeChart({ title, starts, step, series, format, axisFormat, stacked = false, note }: TimeChartProps) {
  const mount = useRef<HTMLDivElement>(null);
  const titleId = useId();
  useEffect(() => {
    const element = mount.current;
    if (element === null) {
      return;
    }
    const axis = cssVar(element, '--fg-muted', '#59636e');
    const grid = cssVar(element, '--border', '#d0d7de');
    const drawn = stacked ? stack(series) : series.map((s) => s.values);
    // Stacked bars: the largest sum first, so each smaller one is drawn over it.
    const order = stacked ? series.map((_, i) => series.length - 1 - i) : series.map((_, i) => i);
    const bars = uPlot.paths.bars?.({ size: [0.7, 48], align: 1 });
    const options: uPlot.Options = {
      width: Math.max(240, element.clientWidth),
      height: 200,
      tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC'),
      cursor: { points: { size: 6 } },
      scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] } },
      axes: [
        { stroke: axis, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } },
        {
          stroke: axis,
          grid: { stroke: grid, width: 1 },
          ticks: { stroke: grid, width: 1 },
          size: 76,
          values: (_u, values) => values.map((v) => (axisFormat ?? format)(v)),
        },
      ],
      series: [
        { label: 'UTC', value: (_u, seconds) => (seconds === null ? '' : bucketLabel(seconds * 1000, step)) },
        ...order.map((index) => {
          const s = series[index];
          const bar = s.kind === 'bar';
          return {
            label: s.label,
            stroke: s.color,
            width: bar ? 1 : 2,
            fill: bar ? s.color : undefined,
            dash: s.dash ? [6, 4] : undefined,
            paths: bar ? bars : undefined,
            points: { show: !bar && starts.length <= 60 },
            spanGaps: false,
            value: (_u: uPlot, _v: number | null, _series: number, idx: number | null) => {
              const raw = idx === null ? null : s.values[idx];
              return raw === null || raw === undefined ? '–' : format(raw);
            },
          } satisfies uPlot.Series;
        }),
      ],
    };
    const data: uPlot.AlignedData = [starts.map((start) => start / 1000), ...order.map((index) => drawn[index])];
    const chart = new uPlot(options, data, element);
    const resize = new ResizeObserver(() => {
      chart.setSize({ width: Math.max(240, element.clientWidth), height: 200 });
    });
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [starts, step, series, format, axisFormat, stacked]);
  const empty = series.every((s) => s.values.every((v) => v === null || v === 0));
  return (
    <figure className="analytics-chart" aria-labelledby={titleId} data-chart={title}>
      <h3 id={titleId}>{title}</h3>
      {empty && <p className="muted small">Nothing in this range.</p>}
      <div className="chart-canvas" ref={mount} role="img" aria-label={`${title}: chart of the table below`} />
      {note !== undefined && <figcaption className="muted small">{note}</figcaption>}
      <details className="chart-data">
        <summary>Data</summary>
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">{step < 86_400_000 ? 'Hour (UTC)' : 'From (UTC)'}</th>
                {series.map((s) => (
                  <th scope="col" key={s.label}>
                    {s.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {starts.map((start, i) => (
                <tr key={start}>
                  <th scope="row">{bucketLabel(start, step)}</th>
                  {series.map((s) => (
                    <td key={s.label} data-label={s.label}>
                      {s.values[i] === null ? '–' : format(s.values[i] ?? 0)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
