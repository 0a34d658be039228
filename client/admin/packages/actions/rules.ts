import { CANCELLABLE_STATUSES, isFinal, type PackageStatus } from '../../../../shared/lifecycle';
import type { Role } from '../../../../shared/roles';
import { api } from '../../../api/client';
import { can } from '../../../app/access';
import type { PackageRow } from '../columns';

/** The office's exception actions (issue 18). Each changes state, so each asks for a reason that goes into the parcel's history. */
export type ActionKind = 'cancel' | 'return_to_sender' | 'force_deliver' | 'reattempt';

export interface ActionSpec {
  kind: ActionKind;
  /** Button text. */
  label: string;
  /** What happens, said in the confirmation. */
  explain: string;
  danger: boolean;
  needsDriver: boolean;
}

export const ACTIONS: Record<ActionKind, ActionSpec> = {
  cancel: {
    kind: 'cancel',
    label: 'Cancel',
    danger: true,
    needsDriver: false,
    explain: 'The parcel is called off: it leaves its driver, and any charge is refunded once.',
  },
  return_to_sender: {
    kind: 'return_to_sender',
    label: 'Return to sender',
    danger: true,
    needsDriver: false,
    explain:
      'The parcel goes back to the shipper. This is final. A failed parcel still with its driver leaves the driver: they bring it back to the depot.',
  },
  force_deliver: {
    kind: 'force_deliver',
    label: 'Force deliver',
    danger: true,
    needsDriver: false,
    explain: 'Marks the parcel delivered without a scan or proof. It is recorded as forced, with your name and reason.',
  },
  reattempt: {
    kind: 'reattempt',
    label: 'Re-attempt',
    danger: false,
    needsDriver: true,
    explain: 'The parcel goes to a driver for another delivery attempt.',
  },
};

const ADMINS: readonly Role[] = ['super_admin', 'admin'];
const DEPOT: readonly Role[] = ['super_admin', 'admin', 'supervisor', 'depot_manager'];

/**
 * Which actions this role may take on this parcel now: the same rules the server applies
 * (shared/lifecycle.ts). `must` = a failed parcel that used its attempts (return-parcel/{id}/ says so);
 * in bulk it is unknown (false) and the server refuses those rows by name.
 */
export function allowedActions(p: Pick<PackageRow, 'status'>, role: Role, must = false): ActionKind[] {
  const status = p.status as PackageStatus;
  if (isFinal(status)) return [];
  const out: ActionKind[] = [];
  if (status === 'failed' && !must && can(role, 'assign.manage')) out.push('reattempt');
  if (status === 'returned' && DEPOT.includes(role)) out.push('reattempt');
  if ((status === 'failed' || status === 'returned') && DEPOT.includes(role)) out.push('return_to_sender');
  if (ADMINS.includes(role) && !must && status !== 'returned') out.push('force_deliver');
  if (CANCELLABLE_STATUSES.includes(status) && can(role, 'package.manage')) out.push('cancel');
  return out;
}

export interface ActionInput {
  note: string;
  driver?: number;
  recipient_name?: string;
}

/** One action on one parcel through the existing operations; the server records the event with the note. */
export async function runAction(kind: ActionKind, p: Pick<PackageRow, 'id' | 'hawb' | 'status'>, input: ActionInput): Promise<void> {
  const note = input.note.trim();
  switch (kind) {
    case 'cancel':
      await api.post(`package/${p.id}/cancel/`, { note });
      return;
    case 'return_to_sender':
      await api.post('return-parcel/depot-manager/', { barcode: p.hawb, outcome: 'returned_to_sender', note });
      return;
    case 'force_deliver':
      await api.post(`package-delivered/${p.id}/force-deliver/`, {
        note,
        ...(input.recipient_name?.trim() ? { recipient_name: input.recipient_name.trim() } : {}),
      });
      return;
    case 'reattempt':
      if (input.driver == null) throw new Error('Choose a driver');
      if (p.status === 'returned')
        await api.post('return-parcel/depot-manager/', { barcode: p.hawb, outcome: 'redeliver', driver: input.driver, note });
      else await api.post(`assign-package/${p.id}/assign-driver/`, { driver: input.driver, note });
      return;
  }
}
