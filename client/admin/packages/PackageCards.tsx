import { formatAddress } from '../../../shared/address';
import type { Role } from '../../../shared/roles';
import { Button, LinkButton } from '../../ui/Button';
import { StatusBadge } from '../../ui/Badge';
import type { PackageRow } from './columns';
import { PrecisionBadge, type PrecisionInfo } from './precision';
import { ACTIONS, allowedActions, type ActionKind } from './actions/rules';
import './packageCards.css';
import { shortDateTime } from '../../ui/when';

/** The orders a phone user can pick instead of clicking table headers (the server's `ordering` fields). */
export const CARD_ORDERINGS = [
  { value: '-created_at', label: 'Newest first' },
  { value: 'created_at', label: 'Oldest first' },
  { value: 'hawb', label: 'Tracking no' },
  { value: 'customer_name', label: 'Customer' },
  { value: 'status', label: 'Status' },
  { value: 'delivery_date', label: 'Delivery date' },
] as const;

const when = (iso: string) => shortDateTime(iso);

/**
 * The package list on a phone or small tablet: one card per parcel with what the office looks for
 * (tracking number, status, recipient, address, driver) and its actions as full-size buttons, instead
 * of a table that scrolls sideways with two useful columns in view. Same data, selection and actions
 * as the table. Re-attempt and force-deliver on a failed parcel stay on its detail page, which first
 * asks whether it used its attempts.
 */
export function PackageCards({
  rows,
  role,
  isCompany,
  selected,
  onSelected,
  precisions,
  onAction,
}: {
  rows: readonly PackageRow[];
  role: Role;
  isCompany: boolean;
  selected?: ReadonlySet<number>;
  onSelected?: (next: Set<number>) => void;
  precisions: ReadonlyMap<number, PrecisionInfo>;
  onAction: (kind: ActionKind, p: PackageRow) => void;
}) {
  const allSelected = !!selected && rows.length > 0 && rows.every((p) => selected.has(p.id));
  const toggle = (id: number) => {
    if (!onSelected) return;
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    onSelected(next);
  };
  return (
    <div class="pkg-cards-wrap">
      {onSelected && (
        <label class="check pkg-select-all">
          <input
            type="checkbox"
            checked={allSelected}
            onChange={() => {
              const next = new Set(selected);
              for (const p of rows)
                if (allSelected) next.delete(p.id);
                else next.add(p.id);
              onSelected(next);
            }}
          />
          Select all {rows.length} on this page
        </label>
      )}
      <ul class="pkg-cards" aria-label="Packages">
        {rows.map((p) => {
          const isSel = !!selected?.has(p.id);
          // A failed parcel counts as out of attempts here: the detail page checks before offering more.
          const kinds = allowedActions(p, role, p.status === 'failed');
          const place = precisions.get(p.id);
          const address = formatAddress(p);
          return (
            <li key={p.id} class={`pkg-card card${isSel ? ' selected' : ''}`} data-testid="package-card">
              <div class="pkg-card-head">
                {onSelected && (
                  <label class="pkg-select">
                    <input type="checkbox" checked={isSel} aria-label={`Select ${p.hawb}`} onChange={() => toggle(p.id)} />
                  </label>
                )}
                <a class="mono pkg-hawb" href={`#/packages/${p.id}`}>
                  {p.hawb}
                </a>
                <StatusBadge status={p.status} />
              </div>
              <div class="pkg-card-body">
                <div class="pkg-who">{p.customer_name ?? <span class="muted">No recipient name</span>}</div>
                <div class={address ? '' : 'muted'}>{address || 'No address'}</div>
                <dl class="pkg-facts">
                  {!isCompany && (
                    <>
                      <dt>Company</dt>
                      <dd>{p.company_name ?? '—'}</dd>
                    </>
                  )}
                  <dt>Driver</dt>
                  <dd>{p.assigned_to?.name ?? <span class="muted">Unassigned</span>}</dd>
                  {p.zone_name && (
                    <>
                      <dt>Zone</dt>
                      <dd>{p.zone_name}</dd>
                    </>
                  )}
                  <dt>Created</dt>
                  <dd>{when(p.created_at)}</dd>
                  {place && (
                    <>
                      <dt>Location</dt>
                      <dd>
                        <PrecisionBadge precision={place.precision} pending={place.pending} />
                      </dd>
                    </>
                  )}
                </dl>
              </div>
              <div class="pkg-card-actions">
                <LinkButton href={`#/packages/${p.id}`} variant="primary">
                  Open
                </LinkButton>
                {p.customer_phone && (
                  <a class="btn" href={`tel:${p.customer_phone.replace(/[^\d+]/g, '')}`} aria-label={`Call ${p.customer_name ?? p.hawb}`}>
                    Call
                  </a>
                )}
                {kinds.map((k) => (
                  <Button key={k} onClick={() => onAction(k, p)} aria-label={`${ACTIONS[k].label} ${p.hawb}`}>
                    {ACTIONS[k].label}
                  </Button>
                ))}
              </div>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
