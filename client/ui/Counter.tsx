import type { Tone } from './Badge';

/** A big number with a label; a link when it leads to the list it counts. */
export function Counter({
  label,
  value,
  tone,
  href,
  big,
}: {
  label: string;
  value: number | string;
  tone?: Tone;
  href?: string;
  big?: boolean;
}) {
  const cls = `counter${tone ? ` ${tone}` : ''}${big ? ' big' : ''}`;
  const inner = (
    <>
      <div class="value" data-testid={`counter-${label.toLowerCase().replace(/\W+/g, '-')}`}>
        {value}
      </div>
      <div class="label">{label}</div>
    </>
  );
  return href ? (
    <a class={cls} href={href}>
      {inner}
    </a>
  ) : (
    <div class={cls}>{inner}</div>
  );
}
