import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { pageCount } from '../api/paging';
import { Button } from './Button';
import { NARROW, useMedia } from './useMedia';

export interface Column<T> {
  key: string;
  label: string;
  render?: (row: T) => ComponentChildren;
  /** The `?ordering=` field this column sorts by, when the server allows it. */
  sort?: string;
  numeric?: boolean;
  /** Hidden until the user picks it in "Columns". */
  optional?: boolean;
}

export interface DataTableProps<T> {
  columns: readonly Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => number | string;
  visible?: ReadonlySet<string>;
  ordering?: string;
  onOrdering?: (ordering: string) => void;
  selected?: ReadonlySet<number>;
  onSelected?: (next: Set<number>) => void;
  actions?: (row: T) => ComponentChildren;
  onRowClick?: (row: T) => void;
  caption?: string;
}

function cell(value: unknown): ComponentChildren {
  if (value == null || value === '') return <span class="muted">—</span>;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/**
 * Under 700 px (NARROW) each row is a card: its columns as label and value, its actions at the
 * bottom, nothing wider than the screen (a table of six columns scrolled sideways on a phone).
 * Sorting is then a select of the sortable columns.
 */
/** The selection with one row's key added or removed. */
function toggled(selected: ReadonlySet<number> | undefined, key: number): Set<number> {
  const next = new Set(selected);
  if (next.has(key)) next.delete(key);
  else next.add(key);
  return next;
}

function DataCards<T>({
  columns,
  rows,
  rowKey,
  ordering,
  onOrdering,
  selected,
  onSelected,
  actions,
  onRowClick,
  caption,
}: DataTableProps<T> & { columns: readonly Column<T>[] }) {
  const sortable = columns.filter((c) => c.sort);
  return (
    <div class="data-cards-wrap">
      {onOrdering && sortable.length > 0 && (
        <label class="data-cards-sort">
          Sort by
          <select class="input" value={ordering ?? ''} onChange={(e) => onOrdering((e.currentTarget as HTMLSelectElement).value)}>
            <option value="">Default order</option>
            {sortable.flatMap((c) => [
              <option key={c.sort} value={c.sort}>
                {c.label} ▲
              </option>,
              <option key={`-${c.sort}`} value={`-${c.sort}`}>
                {c.label} ▼
              </option>,
            ])}
          </select>
        </label>
      )}
      <ul class="data-cards" aria-label={caption}>
        {rows.map((row) => {
          const key = rowKey(row);
          const isSel = typeof key === 'number' && !!selected?.has(key);
          return (
            <li
              key={key}
              class={`card data-card${isSel ? ' selected' : ''}`}
              data-testid="data-card"
              onClick={
                onRowClick
                  ? (e) => {
                      if (!(e.target as HTMLElement).closest('button, a, input, select, label')) onRowClick(row);
                    }
                  : undefined
              }
            >
              {onSelected && typeof key === 'number' && (
                <label class="data-card-select">
                  <input
                    type="checkbox"
                    aria-label={`Select row ${key}`}
                    checked={isSel}
                    onChange={() => onSelected(toggled(selected, key))}
                  />
                </label>
              )}
              <dl class="data-card-fields">
                {columns.map((c) => (
                  <div key={c.key} class="data-card-field">
                    <dt>{c.label}</dt>
                    <dd class={c.numeric ? 'num' : undefined}>
                      {c.render ? c.render(row) : cell((row as Record<string, unknown>)[c.key])}
                    </dd>
                  </div>
                ))}
              </dl>
              {actions && <div class="data-card-actions">{actions(row)}</div>}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

export function DataTable<T>(props: DataTableProps<T>) {
  const { columns, rows, rowKey, visible, ordering, onOrdering, selected, onSelected, actions, onRowClick, caption } = props;
  const narrow = useMedia(NARROW);
  const shown = columns.filter((c) => (visible ? visible.has(c.key) : !c.optional));
  if (narrow) return <DataCards {...props} columns={shown} />;
  const ids = rows.map((r) => rowKey(r)).filter((k): k is number => typeof k === 'number');
  const allSelected = selected != null && ids.length > 0 && ids.every((id) => selected.has(id));
  const sortState = (field: string): 'ascending' | 'descending' | undefined =>
    ordering === field ? 'ascending' : ordering === `-${field}` ? 'descending' : undefined;
  return (
    <div class="table-wrap">
      <table class="data">
        {caption && <caption class="sr-only">{caption}</caption>}
        <thead>
          <tr>
            {onSelected && (
              <th class="sel">
                <input
                  type="checkbox"
                  aria-label="Select all on this page"
                  checked={allSelected}
                  onChange={() => {
                    const next = new Set(selected);
                    for (const id of ids)
                      if (allSelected) next.delete(id);
                      else next.add(id);
                    onSelected(next);
                  }}
                />
              </th>
            )}
            {shown.map((c) => {
              const state = c.sort ? sortState(c.sort) : undefined;
              return (
                <th key={c.key} scope="col" aria-sort={state}>
                  {c.sort && onOrdering ? (
                    <button
                      class="sort"
                      onClick={() => onOrdering(state === 'ascending' ? `-${c.sort}` : state === 'descending' ? '' : c.sort!)}
                    >
                      {c.label}
                      <span aria-hidden="true">{state === 'ascending' ? '▲' : state === 'descending' ? '▼' : '↕'}</span>
                    </button>
                  ) : (
                    c.label
                  )}
                </th>
              );
            })}
            {actions && (
              <th>
                <span class="sr-only">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const key = rowKey(row);
            const isSel = typeof key === 'number' && !!selected?.has(key);
            return (
              <tr
                key={key}
                class={isSel ? 'selected' : undefined}
                onClick={
                  onRowClick
                    ? (e) => {
                        if ((e.target as HTMLElement).closest('button, a, input, select')) return;
                        onRowClick(row);
                      }
                    : undefined
                }
                style={onRowClick ? { cursor: 'pointer' } : undefined}
              >
                {onSelected && typeof key === 'number' && (
                  <td class="sel">
                    <input
                      type="checkbox"
                      aria-label={`Select row ${key}`}
                      checked={isSel}
                      onChange={() => onSelected(toggled(selected, key))}
                    />
                  </td>
                )}
                {shown.map((c) => (
                  <td key={c.key} class={c.numeric ? 'num' : undefined}>
                    {c.render ? c.render(row) : cell((row as Record<string, unknown>)[c.key])}
                  </td>
                ))}
                {actions && <td class="actions">{actions(row)}</td>}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

export function Pager({
  page,
  pageSize,
  count,
  onPage,
  onPageSize,
}: {
  page: number;
  pageSize: number;
  count: number;
  onPage: (p: number) => void;
  onPageSize: (n: number) => void;
}) {
  const pages = pageCount(count, pageSize);
  const from = count === 0 ? 0 : (page - 1) * pageSize + 1;
  const to = Math.min(count, page * pageSize);
  return (
    <nav class="pager" aria-label="Pages">
      <span>
        {from}–{to} of {count}
      </span>
      <span class="spacer" />
      <label class="row">
        Rows
        <select
          class="input"
          style={{ width: 'auto' }}
          value={String(pageSize)}
          onChange={(e) => onPageSize(Number((e.currentTarget as HTMLSelectElement).value))}
        >
          {[10, 25, 50, 100, 200].map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </label>
      <Button size="small" disabled={page <= 1} onClick={() => onPage(page - 1)} aria-label="Previous page">
        ‹ Prev
      </Button>
      <span>
        Page {page} of {pages}
      </span>
      <Button size="small" disabled={page >= pages} onClick={() => onPage(page + 1)} aria-label="Next page">
        Next ›
      </Button>
    </nav>
  );
}

/** Which columns show, remembered per table in localStorage. */
export function useColumns<T>(tableId: string, columns: readonly Column<T>[]): [Set<string>, (key: string, on: boolean) => void] {
  const storageKey = `courier.columns.${tableId}`;
  const [visible, setVisible] = useState<Set<string>>(() => {
    try {
      const saved = JSON.parse(localStorage.getItem(storageKey) ?? 'null') as string[] | null;
      if (Array.isArray(saved)) return new Set(saved.filter((k) => columns.some((c) => c.key === k)));
    } catch {
      /* a corrupt preference falls back to the default */
    }
    return new Set(columns.filter((c) => !c.optional).map((c) => c.key));
  });
  const toggle = (key: string, on: boolean) => {
    setVisible((prev) => {
      const next = new Set(prev);
      if (on) next.add(key);
      else next.delete(key);
      localStorage.setItem(storageKey, JSON.stringify([...next]));
      return next;
    });
  };
  return [visible, toggle];
}

export function ColumnChooser<T>({
  columns,
  visible,
  onToggle,
}: {
  columns: readonly Column<T>[];
  visible: ReadonlySet<string>;
  onToggle: (key: string, on: boolean) => void;
}) {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const close = (e: MouseEvent) => {
      if (!ref.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', close);
    return () => document.removeEventListener('mousedown', close);
  }, [open]);
  return (
    <div class="columns-menu" ref={ref}>
      <Button aria-expanded={open} onClick={() => setOpen(!open)}>
        Columns
      </Button>
      {open && (
        <div class="popover" role="group" aria-label="Visible columns">
          {columns.map((c) => (
            <label key={c.key} class="check">
              <input
                type="checkbox"
                checked={visible.has(c.key)}
                onChange={(e) => onToggle(c.key, (e.currentTarget as HTMLInputElement).checked)}
              />
              {c.label}
            </label>
          ))}
        </div>
      )}
    </div>
  );
}
