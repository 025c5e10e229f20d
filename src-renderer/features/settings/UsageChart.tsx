import { formatCredits } from '../../components/format';

const W = 720;
const H = 220;
const PAD = { l: 44, r: 10, t: 10, b: 28 };

/** Credits per day as bars, in plain SVG (no chart library). */
export function UsageChart({ series }: { series: { date: string; credits: number }[] }) {
  if (!series.length) return <p className="muted">No usage in this period.</p>;
  const max = Math.max(...series.map((d) => d.credits), 0) || 1;
  const iw = W - PAD.l - PAD.r;
  const ih = H - PAD.t - PAD.b;
  const bw = iw / series.length;
  const ticks = [0, max / 2, max];
  const labelEvery = Math.ceil(series.length / 8);
  return (
    <svg className="chart" viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`Credits per day over ${series.length} days, at most ${formatCredits(max)}`} data-testid="usage-chart">
      {ticks.map((t) => {
        const y = PAD.t + ih - (t / max) * ih;
        return (
          <g key={t}>
            <line className="axis" x1={PAD.l} x2={W - PAD.r} y1={y} y2={y} />
            <text x={PAD.l - 6} y={y + 3} textAnchor="end">
              {formatCredits(t)}
            </text>
          </g>
        );
      })}
      {series.map((d, i) => {
        const h = (d.credits / max) * ih;
        return (
          <g key={d.date || i}>
            <rect className="bar" x={PAD.l + i * bw + 1} y={PAD.t + ih - h} width={Math.max(1, bw - 2)} height={h} rx={2}>
              <title>
                {d.date}: {formatCredits(d.credits)} credits
              </title>
            </rect>
            {i % labelEvery === 0 ? (
              <text x={PAD.l + i * bw + bw / 2} y={H - 10} textAnchor="middle">
                {d.date.slice(5, 10)}
              </text>
            ) : null}
          </g>
        );
      })}
    </svg>
  );
}
