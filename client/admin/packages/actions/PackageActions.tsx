import { useEffect, useState } from 'preact/hooks';
import type { Role } from '../../../../shared/roles';
import { api } from '../../../api/client';
import { can } from '../../../app/access';
import { Button } from '../../../ui/Button';
import { toast } from '../../../ui/toast';
import type { PackageRow } from '../columns';
import { ActionDialog } from './ActionDialog';
import { PackageForm } from './PackageForm';
import { PrintLabels } from './PrintLabels';
import { ACTIONS, allowedActions, type ActionKind } from './rules';

/** The package detail's action bar: correct the details, and the exception actions this role may take now. */
export function PackageActions({ pkg, role, onChanged }: { pkg: PackageRow; role: Role; onChanged: () => void }) {
  const [must, setMust] = useState(false);
  const [open, setOpen] = useState<ActionKind | 'edit' | null>(null);
  useEffect(() => {
    setMust(false);
    if (pkg.status !== 'failed') return;
    let live = true;
    api.get<{ must_return: boolean }>(`return-parcel/${pkg.id}/`).then(
      (r) => {
        if (live) setMust(r.must_return);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [pkg.id, pkg.status]);

  const kinds = allowedActions(pkg, role, must);
  const canEdit = can(role, 'package.manage') && !['delivered', 'returned_to_sender', 'cancelled'].includes(pkg.status);
  const printable = role !== 'driver' && !['delivered', 'returned_to_sender', 'cancelled'].includes(pkg.status);
  if (!kinds.length && !canEdit && !printable) return null;
  const done = (message: string) => {
    toast(message, 'ok');
    setOpen(null);
    onChanged();
  };
  return (
    <div class="card" data-testid="package-actions">
      <h2 style={{ marginTop: 0 }}>Actions</h2>
      {must && (
        <p class="muted">
          This parcel used all its delivery attempts: it must come back to the depot (return it to the sender, or redeliver it from the
          depot).
        </p>
      )}
      <div class="row">
        {canEdit && <Button onClick={() => setOpen('edit')}>Correct details</Button>}
        {kinds.map((k) => (
          <Button key={k} variant={ACTIONS[k].danger ? 'danger' : 'primary'} onClick={() => setOpen(k)}>
            {ACTIONS[k].label}
          </Button>
        ))}
        {printable && <PrintLabels ids={[pkg.id]} label="Label" />}
      </div>
      {open === 'edit' && (
        <PackageForm
          pkg={pkg}
          isCompany={role === 'company'}
          onClose={() => setOpen(null)}
          onSaved={() => done(`Parcel ${pkg.hawb} corrected`)}
        />
      )}
      {open && open !== 'edit' && <ActionDialog kind={open} packages={[pkg]} onClose={() => setOpen(null)} onDone={done} />}
    </div>
  );
}
