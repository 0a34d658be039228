import { useState } from 'preact/hooks';
import { ChartFrame, niceTicks, type Datum } from './ChartFrame';

const H = 240;
const PAD = { top: 18, right: 8, bottom: 30, left: 40 };

/**
 * Vertical bars (deliveries per day). Each bar is focusable and names its value; hovering or focusing
 * one shows the value above it, so nobody has to read it off the axis.
 */
export function BarChart({
  title,
  description,
  data,
  valueLabel = 'Value',
  format = (v) => v.toLocaleString(),
  integer = true,
}: {
  title: string;
  description: string;
  data: readonly Datum[];
  valueLabel?: string;
  format?: (v: number) => string;
  integer?: boolean;
}) {
  const [active, setActive] = useState<number | null>(null);
  const ticks = niceTicks(Math.max(0, ...data.map((d) => d.value)), integer);
  const max = ticks[ticks.length - 1] ?? 1;
  return (
    <ChartFrame title={title} description={description} data={data} format={format} valueLabel={valueLabel}>
      {({ titleId, descId, width: W }) => {
        const innerW = W - PAD.left - PAD.right;
        const innerH = H - PAD.top - PAD.bottom;
        const slot = innerW / Math.max(1, data.length);
        const barW = Math.max(2, Math.min(40, slot * 0.7));
        // Every label when they fit, otherwise every n-th so they never overlap (about 52px per label).
        const every = Math.max(1, Math.ceil(data.length / Math.max(1, Math.floor(innerW / 52))));
        const y = (v: number) => PAD.top + innerH - (v / max) * innerH;
        return (
          <svg
            class="chart-svg"
            width={W}
            height={H}
            viewBox={`0 0 ${W} ${H}`}
            role="group"
            aria-labelledby={titleId}
            aria-describedby={descId}
            data-testid="bar-chart"
          >
            <title>{title}</title>
            <desc>{description}</desc>
            {ticks.map((t) => (
              <g key={t} class="tick" aria-hidden="true">
                <line x1={PAD.left} x2={W - PAD.right} y1={y(t)} y2={y(t)} />
                <text x={PAD.left - 6} y={y(t)} dy="0.32em" text-anchor="end">
                  {format(t)}
                </text>
              </g>
            ))}
            {data.map((d, i) => {
              const x = PAD.left + slot * i + (slot - barW) / 2;
              const top = y(d.value);
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
                  {/* A full-height hit area so thin or zero bars can still be hovered. */}
                  <rect class="hit" x={PAD.left + slot * i} y={PAD.top} width={slot} height={innerH} />
                  <rect class="fill" x={x} y={top} width={barW} height={Math.max(0, PAD.top + innerH - top)} rx="2" />
                  {i % every === 0 && (
                    <text class="axis-label" x={x + barW / 2} y={H - PAD.bottom + 18} text-anchor="middle" aria-hidden="true">
                      {d.label}
                    </text>
                  )}
                  {on && (
                    <text class="value" x={x + barW / 2} y={Math.max(PAD.top - 4, top - 6)} text-anchor="middle" aria-hidden="true">
                      {format(d.value)}
                    </text>
                  )}
                </g>
              );
            })}
            <line class="axis" x1={PAD.left} x2={W - PAD.right} y1={PAD.top + innerH} y2={PAD.top + innerH} aria-hidden="true" />
          </svg>
        );
      }}
    </ChartFrame>
  );
}
