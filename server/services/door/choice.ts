import { iso } from '../../clock';
import type { Deps } from '../../deps';
import { packageDoor } from '../../db/schema/index';
import { conflict } from '../../errors';
import { isFinal, type PackageStatus } from '../../../shared/lifecycle';
import type { ChoiceKind, RecipientChoice } from '../../../shared/door';
import type { LeaveChoiceBody } from '../../../shared/schemas/door';
import { recordEvent } from '../packages/lifecycle';
import { logPackageChange } from '../sync/changes';
import type { PackageRow } from '../packages/shape';
import type { DoorRow } from './rules';

interface StoredChoice {
  kind: ChoiceKind;
  note: string | null;
  neighbour: string | null;
}

export function choiceOf(door: DoorRow | undefined): RecipientChoice | null {
  if (!door?.choice || door.choice_at == null) return null;
  const c = JSON.parse(door.choice) as StoredChoice;
  return { kind: c.kind, note: c.note, neighbour: c.neighbour, at: iso(door.choice_at) ?? '', late: door.choice_late };
}

/**
 * The recipient's authority to leave the parcel (a safe place, a named neighbour) or their choice to
 * collect it from the depot. It reaches the driver's phone through the parcel's feed row; one made
 * once the parcel is out for delivery is kept as `late` (shown to both sides as such, never dropped).
 */
export async function chooseAtDoor(deps: Deps, t: { parcel: PackageRow }, body: LeaveChoiceBody): Promise<RecipientChoice | null> {
  const { parcel } = t;
  if (isFinal(parcel.status as PackageStatus)) {
    throw conflict('This parcel is no longer on its way; a choice can no longer reach the driver', { status: parcel.status });
  }
  const now = deps.clock.now();
  const late = parcel.status === 'out_for_delivery';
  const stored: StoredChoice | null =
    body.kind === 'none'
      ? null
      : {
          kind: body.kind,
          note: 'note' in body ? body.note || null : null,
          neighbour: body.kind === 'neighbour' ? body.neighbour : null,
        };
  const set = {
    choice: stored ? JSON.stringify(stored) : null,
    choice_at: stored ? now : null,
    choice_late: stored ? late : false,
    updated_at: now,
  };
  await deps.db
    .insert(packageDoor)
    .values({ package_id: parcel.id, ...set, created_at: now })
    .onConflictDoUpdate({ target: packageDoor.package_id, set })
    .run();
  await recordEvent(
    deps.db,
    now,
    parcel,
    'recipient_choice',
    { userId: null },
    { note: stored ? `${stored.kind}${late ? ' (late)' : ''}` : 'withdrawn', data: { ...stored, late } },
  );
  await logPackageChange(deps.db, parcel.id, { driverId: parcel.assigned_to_id, companyId: parcel.company_id }, now);
  return stored ? { ...stored, at: iso(now) ?? '', late } : null;
}
