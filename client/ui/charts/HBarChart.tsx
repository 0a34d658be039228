import { useState } from 'preact/hooks';
import { ChartFrame, type Datum } from './ChartFrame';

const ROW = 32;
const BAR = 20;
const VALUE_W = 48;

/**
 * Horizontal bars for a value between 0 and `max` (success rate by driver): long names fit on the
 * left, and every value is written at the end of its bar as well as announced on focus.
 */
export function HBarChart({
  title,
  description,
  data,
  max = 1,
  valueLabel = 'Value',
  format = (v) => `${Math.round(v * 100)}%`,
}: {
  title: string;
  description: string;
  data: readonly Datum[];
  max?: number;
  valueLabel?: string;
  format?: (v: number) => string;
}) {
  const [active, setActive] = useState<number | null>(null);
  const H = data.length * ROW + 26;
  const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
  return (
    <ChartFrame title={title} description={description} data={data} format={format} valueLabel={valueLabel}>
      {({ titleId, descId, width: W }) => {
        // Names get up to a third of the width (about 7px a character at 13px).
        const labelW = Math.min(200, Math.max(90, Math.round(W / 3)));
        const chars = Math.floor((labelW - 10) / 7);
        const barMax = Math.max(40, W - labelW - VALUE_W);
        return (
          <svg
            class="chart-svg hbar"
            width={W}
            height={H}
            viewBox={`0 0 ${W} ${H}`}
            role="group"
            aria-labelledby={titleId}
            aria-describedby={descId}
            data-testid="hbar-chart"
          >
            <title>{title}</title>
            <desc>{description}</desc>
            {[0, 0.5, 1].map((f) => (
              <g key={f} class="tick" aria-hidden="true">
                <line x1={labelW + f * barMax} x2={labelW + f * barMax} y1={2} y2={H - 20} />
                <text x={labelW + f * barMax} y={H - 6} text-anchor="middle">
                  {format(f * max)}
                </text>
              </g>
            ))}
            {data.map((d, i) => {
              const yTop = 6 + i * ROW;
              const w = Math.max(0, Math.min(1, d.value / max)) * barMax;
              const on = active === i;
              return (
                <g
                  key={d.label}
                  class={`bar${on ? ' on' : ''}`}
                  tabIndex={0}
                  role="img"
                  aria-label={`${d.label}: ${format(d.value)}`}
                  onMouseEnter={() => setActive(i)}
                  onMouseLeave={() => setActive(null)}
                  onFocus={() => setActive(i)}
                  onBlur={() => setActive(null)}
                >
                  <title>{`${d.label}: ${format(d.value)}`}</title>
                  <rect class="hit" x={0} y={yTop - (ROW - BAR) / 2} width={W} height={ROW} />
                  <text class="axis-label" x={labelW - 8} y={yTop + BAR / 2} dy="0.32em" text-anchor="end" aria-hidden="true">
                    {clip(d.label, chars)}
                  </text>
                  <rect class="track" x={labelW} y={yTop} width={barMax} height={BAR} rx="3" />
                  <rect class="fill" x={labelW} y={yTop} width={w} height={BAR} rx="3" />
                  <text class="value" x={labelW + barMax + 6} y={yTop + BAR / 2} dy="0.32em" aria-hidden="true">
                    {format(d.value)}
                  </text>
                </g>
              );
            })}
          </svg>
        );
      }}
    </ChartFrame>
  );
}
