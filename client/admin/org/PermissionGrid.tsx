import { ALL_PERMISSIONS, PERMISSION_AREAS, type Permission, type PermissionArea } from '../../../shared/permissions';

export const AREA_LABELS: Record<PermissionArea, string> = {
  geo: 'Places (geo)',
  company: 'Companies',
  employee: 'Employees',
  warehouse: 'Warehouses',
  pickup_point: 'Pickup points',
  package_type: 'Package types',
  unit: 'Units of measurement',
  failed_status: 'Failed-delivery reasons',
  package: 'Packages',
  assign: 'Assigning parcels',
  scan: 'Scanning',
  delivery: 'Deliveries',
  route: 'Routes',
  rate: 'Rates',
  wallet: 'Wallets',
  invoice: 'Invoices',
  report: 'Reports',
  webhook: 'Webhooks',
  permission: 'Permission groups',
  support: 'Driver support',
  dashboard: 'Dashboard',
  tracking: 'Tracking',
};

const VERBS = ['view', 'manage'] as const;

/** Every permission of shared/permissions.ts as a checkbox, one row per area, "view" and "manage" columns. */
export function PermissionGrid({ value, onValue }: { value: ReadonlySet<Permission>; onValue: (next: Set<Permission>) => void }) {
  const toggle = (p: Permission, on: boolean) => {
    const next = new Set(value);
    if (on) next.add(p);
    else next.delete(p);
    onValue(next);
  };
  const column = (verb: (typeof VERBS)[number], on: boolean) => {
    const next = new Set(value);
    for (const a of PERMISSION_AREAS) {
      const p = `${a}.${verb}` as Permission;
      if (on) next.add(p);
      else next.delete(p);
    }
    onValue(next);
  };
  const allOf = (verb: (typeof VERBS)[number]) => PERMISSION_AREAS.every((a) => value.has(`${a}.${verb}` as Permission));
  return (
    <fieldset class="perm-grid">
      <legend>
        Permissions{' '}
        <span class="muted">
          ({value.size} of {ALL_PERMISSIONS.length})
        </span>
      </legend>
      <div class="row perm-all">
        {VERBS.map((v) => (
          <label key={v} class="check">
            <input type="checkbox" checked={allOf(v)} onChange={(e) => column(v, (e.currentTarget as HTMLInputElement).checked)} />
            All {v === 'view' ? 'view' : 'manage'}
          </label>
        ))}
      </div>
      <div class="perm-areas">
        {PERMISSION_AREAS.map((a) => (
          <div key={a} class="perm-area" role="group" aria-label={AREA_LABELS[a]}>
            <span class="name">{AREA_LABELS[a]}</span>
            {VERBS.map((v) => {
              const p = `${a}.${v}` as Permission;
              return (
                <label key={v} class="check small-check" title={p}>
                  <input
                    type="checkbox"
                    name={p}
                    checked={value.has(p)}
                    onChange={(e) => toggle(p, (e.currentTarget as HTMLInputElement).checked)}
                  />
                  {v === 'view' ? 'View' : 'Manage'}
                </label>
              );
            })}
          </div>
        ))}
      </div>
    </fieldset>
  );
}
