/** Build times as a picture: one bar per build, height = duration, colour = result (hand-written SVG). */
import { formatDuration, formatTime, resultTone } from '../format';

export interface ChartPoint {
  uuid: string;
  startTime?: string | null;
  endTime: string;
  duration?: number | null;
  result: string;
}

export function BuildTimeChart({ points, onSelect }: { points: ChartPoint[]; onSelect?: (uuid: string) => void }) {
  const series = [...points].filter((p) => p.duration !== null && p.duration !== undefined).reverse();
  if (series.length === 0) {
    return <p className="empty">No finished build yet.</p>;
  }
  const width = 720;
  const height = 180;
  const pad = 28;
  const max = Math.max(...series.map((p) => p.duration ?? 0), 1);
  const barWidth = Math.max(2, Math.min(24, (width - pad) / series.length - 2));
  return (
    <figure className="chart">
      <svg
        viewBox={`0 0 ${width} ${height + 20}`}
        role="img"
        aria-label={`Duration of the last ${series.length} builds`}
      >
        <line x1={pad} y1={height} x2={width} y2={height} className="axis" />
        <text x={0} y={12} className="axis-label">
          {formatDuration(max * 1000)}
        </text>
        <text x={0} y={height} className="axis-label">
          0
        </text>
        {series.map((point, index) => {
          const h = Math.max(1, ((point.duration ?? 0) / max) * (height - 16));
          return (
            <rect
              key={point.uuid}
              x={pad + index * (barWidth + 2)}
              y={height - h}
              width={barWidth}
              height={h}
              className={`bar tone-${resultTone(point.result)}`}
              onClick={() => onSelect?.(point.uuid)}
            >
              <title>{`${formatTime(point.endTime)}: ${point.result} in ${formatDuration((point.duration ?? 0) * 1000)}`}</title>
            </rect>
          );
        })}
      </svg>
      <figcaption className="muted small">Oldest on the left; colour is the result.</figcaption>
    </figure>
  );
}
