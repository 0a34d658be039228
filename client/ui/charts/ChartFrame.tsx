import type { ComponentChildren, RefObject } from 'preact';
import { useId, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { Button } from '../Button';
import './charts.css';

export interface Datum {
  label: string;
  value: number;
}

/**
 * Axis ticks from 0 to at least `max` in round steps (1, 2, 2.5 or 5 times a power of ten), about
 * four of them; whole numbers only when the data are counts, so "3.8 deliveries" never appears.
 */
export function niceTicks(max: number, integer = true): number[] {
  const raw = (max > 0 ? max : 1) / 4;
  const p = 10 ** Math.floor(Math.log10(raw));
  let step = [1, 2, 2.5, 5, 10].map((m) => m * p).find((s) => s >= raw) ?? 10 * p;
  if (integer) step = Math.max(1, Math.ceil(step));
  const top = Math.max(step, Math.ceil((max > 0 ? max : 1) / step) * step);
  const out: number[] = [];
  for (let v = 0; v <= top + step / 1000; v += step) out.push(Math.round(v * 1000) / 1000);
  return out;
}

/** The drawing's width in CSS pixels, so SVG text stays at its real size instead of shrinking with the chart. */
function useWidth(): [RefObject<HTMLDivElement>, number] {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(640);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const update = () => setWidth(Math.max(260, Math.round(el.clientWidth)));
    update();
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(update);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return [ref, width];
}

/**
 * Title, description and a "Table" toggle around a chart: the same numbers as a table for anyone who
 * would rather read, and for screen readers (the SVG also carries title/desc).
 */
export function ChartFrame({
  title,
  description,
  data,
  format,
  valueLabel,
  children,
}: {
  title: string;
  description: string;
  data: readonly Datum[];
  format: (v: number) => string;
  valueLabel: string;
  children: (ids: { titleId: string; descId: string; width: number }) => ComponentChildren;
}) {
  const [table, setTable] = useState(false);
  const [body, width] = useWidth();
  const id = useId();
  const titleId = `${id}-t`;
  const descId = `${id}-d`;
  return (
    <figure class="chart card" aria-labelledby={titleId}>
      <div class="chart-head">
        <figcaption id={titleId} class="chart-title">
          {title}
        </figcaption>
        <span class="spacer" />
        <Button size="small" aria-pressed={table} onClick={() => setTable(!table)}>
          {table ? 'Show chart' : 'Show table'}
        </Button>
      </div>
      <p id={descId} class="chart-desc muted">
        {description}
      </p>
      <div ref={body} class="chart-body">
        {data.length === 0 ? (
          <p class="muted chart-empty">Nothing to show for this period.</p>
        ) : table ? (
          <div class="table-wrap chart-table">
            <table class="data">
              <caption class="sr-only">{title}</caption>
              <thead>
                <tr>
                  <th scope="col">Label</th>
                  <th scope="col">{valueLabel}</th>
                </tr>
              </thead>
              <tbody>
                {data.map((d) => (
                  <tr key={d.label}>
                    <th scope="row">{d.label}</th>
                    <td class="num">{format(d.value)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          children({ titleId, descId, width })
        )}
      </div>
    </figure>
  );
}
