import { compact, dayLabel } from './usage-data';

export interface Series {
  name: string;
  /** A class that colours the bars and the legend swatch (usage.css). */
  className: string;
}

// Drawn at about the size it is shown (two charts side by side), so its labels stay readable.
const W = 520;
const H = 200;
const PAD = { l: 54, r: 10, t: 12, b: 26 };
const MAX_BAR = 44;

/** The axis top: the smallest 1, 2, 2.5 or 5 × 10^k at or above `max`, so the ticks read round. */
export function niceMax(max: number): number {
  if (!(max > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(max));
  return ([1, 2, 2.5, 5, 10].find((m) => m * p >= max * (1 - 1e-9)) ?? 10) * p;
}

/**
 * Bars per day in plain SVG (no chart library), one segment per series stacked bottom up. The
 * picture is named for screen readers by `summary`; the same numbers are in a table beside it.
 */
export function UsageBars({ id, title, summary, days, series, values, format }: {
  id: string;
  title: string;
  summary: string;
  days: string[];
  series: Series[];
  /** values[dayIndex][seriesIndex] */
  values: number[][];
  format: (n: number) => string;
}) {
  const totals = values.map((v) => v.reduce((s, x) => s + x, 0));
  const max = niceMax(Math.max(...totals, 0));
  const iw = W - PAD.l - PAD.r;
  const ih = H - PAD.t - PAD.b;
  const slot = iw / Math.max(1, days.length);
  const bw = Math.min(MAX_BAR, Math.max(2, slot * 0.7));
  const labelEvery = Math.ceil(days.length / 10);
  const y = (v: number) => PAD.t + ih - (v / max) * ih;
  return (
    <figure className="usage-chart" data-testid={`${id}-chart`}>
      <figcaption className="usage-chart-head">
        <span className="usage-chart-title" id={`${id}-title`}>
          {title}
        </span>
        {series.length > 1 ? (
          <span className="usage-legend" aria-hidden="true">
            {series.map((s) => (
              <span key={s.name}>
                <i className={`swatch ${s.className}`} />
                {s.name}
              </span>
            ))}
          </span>
        ) : null}
      </figcaption>
      <svg className="chart" viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby={`${id}-title ${id}-desc`}>
        <desc id={`${id}-desc`}>{summary}</desc>
        {[0, max / 2, max].map((t) => (
          <g key={t}>
            <line className="axis" x1={PAD.l} x2={W - PAD.r} y1={y(t)} y2={y(t)} />
            <text x={PAD.l - 6} y={y(t) + 3} textAnchor="end">
              {compact(t)}
            </text>
          </g>
        ))}
        {days.map((d, i) => {
          const x = PAD.l + i * slot + (slot - bw) / 2;
          let base = 0;
          return (
            <g key={d}>
              {series.map((s, k) => {
                const v = values[i]?.[k] ?? 0;
                if (v <= 0) return null;
                const top = y(base + v);
                const h = y(base) - top;
                base += v;
                return (
                  <rect key={s.name} className={`bar ${s.className}`} x={x} y={top} width={bw} height={Math.max(1, h)} rx={2}>
                    <title>{`${dayLabel(d)}: ${series.map((ss, kk) => `${format(values[i]?.[kk] ?? 0)} ${ss.name.toLowerCase()}`).join(', ')}`}</title>
                  </rect>
                );
              })}
              {i % labelEvery === 0 || days.length === 1 ? (
                <text x={PAD.l + i * slot + slot / 2} y={H - 10} textAnchor="middle">
                  {dayLabel(d)}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
    </figure>
  );
}
