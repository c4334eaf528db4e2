import type { Monitor } from '@altwise/contracts/monitors';

type Point = Monitor['history'][number];

const WIDTH = 240;
const HEIGHT = 64;
const PAD = 6;

const percent = (score: number) => `${Math.round(score * 100)}%`;

/** The trend in words: what the chart shows, for its text alternative. */
export function describeTrend(url: string, history: readonly Point[]): string {
  const scores = history.map((point) => point.score).filter((score): score is number => score !== null);
  if (scores.length === 0) return `Score history of ${url}: no completed audit with a score yet.`;
  const first = scores[0] as number;
  const last = scores.at(-1) as number;
  if (scores.length === 1) return `Score history of ${url}: one audit, ${percent(last)}.`;
  const low = Math.min(...scores);
  const high = Math.max(...scores);
  const change = Math.round(last * 100) - Math.round(first * 100);
  const trend =
    change > 0 ? `up ${change} points` : change < 0 ? `down ${-change} points` : 'unchanged overall';
  return `Score history of ${url}: ${scores.length} audits, from ${percent(first)} to ${percent(last)}, ${trend}; lowest ${percent(low)}, highest ${percent(high)}.`;
}

/**
 * A small line chart of a monitor's scores (0 to 100 %), oldest on the left. One image to assistive
 * technology, named by the trend in words; the numbers are in the table next to it.
 */
export function ScoreChart({ url, history }: { url: string; history: readonly Point[] }) {
  const points = history.filter((point): point is { at: string; score: number } => point.score !== null);
  const step = points.length > 1 ? (WIDTH - 2 * PAD) / (points.length - 1) : 0;
  const coordinates = points.map((point, index) => ({
    x: points.length > 1 ? PAD + index * step : WIDTH / 2,
    y: PAD + (1 - point.score) * (HEIGHT - 2 * PAD),
  }));
  return (
    <svg
      role="img"
      aria-label={describeTrend(url, history)}
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      width={WIDTH}
      height={HEIGHT}
      className="max-w-full rounded border border-slate-200 bg-slate-50"
    >
      <line x1={PAD} x2={WIDTH - PAD} y1={PAD} y2={PAD} className="stroke-slate-200" strokeDasharray="3 3" />
      <line x1={PAD} x2={WIDTH - PAD} y1={HEIGHT - PAD} y2={HEIGHT - PAD} className="stroke-slate-300" />
      {coordinates.length > 1 ? (
        <polyline
          points={coordinates.map(({ x, y }) => `${x},${y}`).join(' ')}
          fill="none"
          className="stroke-indigo-700"
          strokeWidth={2}
        />
      ) : null}
      {coordinates.map(({ x, y }, index) => (
        <circle key={points[index]?.at ?? index} cx={x} cy={y} r={3} className="fill-indigo-700" />
      ))}
    </svg>
  );
}
