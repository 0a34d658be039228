import type { ComponentChildren } from 'preact';

/**
 * "What went wrong?": one reason chosen from a list of large radio rows, as the failed-delivery and
 * the failed-collection screens both ask it. `children` go above the rows (a note when none apply).
 */
export function ReasonChoice<T extends string | number>(props: {
  options: readonly { id: T; name: string }[];
  chosen: T | null;
  onChoose: (id: T) => void;
  children?: ComponentChildren;
}) {
  return (
    <fieldset class="reasons">
      <legend>What went wrong?</legend>
      {props.children}
      {props.options.map((r) => (
        <label key={r.id} class={`reason${props.chosen === r.id ? ' chosen' : ''}`}>
          <input type="radio" name="reason" value={r.id} checked={props.chosen === r.id} onChange={() => props.onChoose(r.id)} />
          {r.name}
        </label>
      ))}
    </fieldset>
  );
}
