import type { ReactNode } from 'react';
import { formatMoney, groupThousands } from '@/shared/money.ts';

/**
 * The dashboard's charts, written by hand (decision 065): an SVG line chart and bars made of plain elements, no
 * chart library. They live in the admin's chunk only (never on a shopper's page), weigh ≈ 2 KB gzip against uPlot's
 * 23 KB or Chart.js' 61 KB, and draw from the first render, with no canvas and no measuring of the page.
 */

/** '$1.2 M', '$350 mil', '$900': money on an axis, whole pesos. */
export function compactMoney(cents: number): string {
  const pesos = cents / 100;
  const abs = Math.abs(pesos);
  if (abs >= 1_000_000) return `$${(pesos / 1_000_000).toFixed(abs >= 10_000_000 ? 0 : 1)} M`;
  if (abs >= 1_000) return `$${groupThousands(pesos / 1_000)} mil`;
  return `$${groupThousands(pesos)}`;
}

/** A round step for about `ticks` divisions of [0, max]. */
function niceStep(max: number, ticks: number): number {
  const raw = max / ticks;
  const power = 10 ** Math.floor(Math.log10(raw));
  const unit = raw / power;
  return (unit <= 1 ? 1 : unit <= 2 ? 2 : unit <= 2.5 ? 2.5 : unit <= 5 ? 5 : 10) * power;
}

export type LineSeries = { name: string; values: number[]; tone: 'brand' | 'muted' };

const W = 960;
const H = 260;
const PAD = { top: 12, right: 16, bottom: 28, left: 72 };

/** Two (or more) daily series over the same days, e.g. this year's 30 days against last year's. */
export function LineChart({
  labels,
  series,
  label,
}: {
  labels: string[];
  series: LineSeries[];
  /** What the chart says, for screen readers. */
  label: string;
}) {
  const all = series.flatMap((s) => s.values);
  const lowest = Math.min(0, ...all);
  const top = Math.max(1, ...all);
  const step = niceStep(top - lowest, 4);
  const yMin = Math.floor(lowest / step) * step;
  const yMax = Math.ceil(top / step) * step;
  const x = (i: number) => PAD.left + (i * (W - PAD.left - PAD.right)) / Math.max(1, labels.length - 1);
  const y = (v: number) => PAD.top + ((yMax - v) * (H - PAD.top - PAD.bottom)) / (yMax - yMin || 1);
  const ticks: number[] = [];
  for (let v = yMin; v <= yMax + step / 2; v += step) ticks.push(v);
  const every = Math.ceil(labels.length / 8);
  return (
    <figure>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={label} className="h-auto w-full">
        {ticks.map((v) => (
          <g key={v}>
            <line
              x1={PAD.left}
              x2={W - PAD.right}
              y1={y(v)}
              y2={y(v)}
              className={v === 0 ? 'stroke-slate-300' : 'stroke-slate-100'}
            />
            <text x={PAD.left - 8} y={y(v) + 4} textAnchor="end" className="fill-slate-500 text-[12px]">
              {compactMoney(v)}
            </text>
          </g>
        ))}
        {labels.map((l, i) =>
          // Counted back from the last day, which is always labelled.
          (labels.length - 1 - i) % every === 0 ? (
            <text
              key={l}
              x={x(i)}
              y={H - 8}
              textAnchor={i === labels.length - 1 ? 'end' : 'middle'}
              className="fill-slate-500 text-[12px]"
            >
              {l}
            </text>
          ) : null,
        )}
        {series.map((s) => (
          <g key={s.name}>
            <polyline
              fill="none"
              strokeWidth={s.tone === 'brand' ? 2.5 : 2}
              strokeDasharray={s.tone === 'muted' ? '5 4' : undefined}
              strokeLinejoin="round"
              className={s.tone === 'brand' ? 'stroke-brand-600' : 'stroke-slate-400'}
              points={s.values.map((v, i) => `${x(i)},${y(v)}`).join(' ')}
            />
            {s.tone === 'brand'
              ? s.values.map((v, i) => (
                  <circle key={labels[i]} cx={x(i)} cy={y(v)} r={3} className="fill-brand-600">
                    <title>{`${labels[i]}: ${formatMoney(v)}`}</title>
                  </circle>
                ))
              : null}
          </g>
        ))}
      </svg>
      <figcaption className="mt-2 flex flex-wrap gap-4 text-xs text-slate-600">
        {series.map((s) => (
          <span key={s.name} className="inline-flex items-center gap-1.5">
            <span
              aria-hidden
              className={`inline-block h-0.5 w-5 ${s.tone === 'brand' ? 'bg-brand-600' : 'border-t-2 border-dashed border-slate-400'}`}
            />
            {s.name}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}

export type Bar = {
  key: string;
  label: ReactNode;
  value: number;
  compare?: number;
  display: string;
  /** A second, smaller line under the bar ('19 pedidos'). */
  detail?: string;
};

/**
 * Horizontal bars, one per row, sized against the largest value; with `compare`, a thin grey bar under each (last
 * year's figure).
 */
export function BarList({
  bars,
  compareLabel,
  empty = 'Sin datos en el periodo.',
}: {
  bars: Bar[];
  compareLabel?: string;
  empty?: string;
}) {
  const max = Math.max(1, ...bars.flatMap((b) => [b.value, b.compare ?? 0]));
  const pct = (v: number) => `${Math.max(0, (v / max) * 100).toFixed(1)}%`;
  if (bars.length === 0) return <p className="py-6 text-center text-sm text-slate-500">{empty}</p>;
  return (
    <ul className="space-y-3">
      {bars.map((b) => (
        <li key={b.key}>
          <div className="flex items-baseline justify-between gap-3 text-sm">
            <span className="min-w-0 truncate text-slate-700">{b.label}</span>
            <span className="shrink-0 font-medium tabular-nums text-slate-900">{b.display}</span>
          </div>
          <div className="mt-1 h-2.5 rounded-full bg-slate-100">
            <div className="h-2.5 rounded-full bg-brand-600" style={{ width: pct(b.value) }} />
          </div>
          {b.compare !== undefined ? (
            <div
              className="mt-0.5 h-1.5 rounded-full bg-slate-300"
              style={{ width: pct(b.compare) }}
              title={compareLabel ? `${compareLabel}: ${formatMoney(b.compare)}` : undefined}
            />
          ) : null}
          {b.detail ? <p className="mt-0.5 text-xs text-slate-500">{b.detail}</p> : null}
        </li>
      ))}
    </ul>
  );
}
