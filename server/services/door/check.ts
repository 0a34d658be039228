import { and, count, eq, like } from 'drizzle-orm';
import type { Deps } from '../../deps';
import { packageDoor, refusedDelivery } from '../../db/schema/index';
import { ApiError } from '../../errors';
import { ageOn, proofMissing, type DoorChecked, type DoorProof, type ProofRequirements } from '../../../shared/door';
import type { DeliverBody } from '../../../shared/schemas/delivery';
import { localDay } from '../../../shared/time/zone';
import type { PackageRow } from '../packages/shape';
import { depotZone } from '../time/zones';
import { choiceOf } from './choice';
import { codeIs } from './code';
import { doorRow, parcelRequirements } from './rules';

type DoorInput = Pick<DeliverBody, 'photos' | 'signature' | 'recipient_name' | 'outcome' | 'door_scan' | 'age' | 'code'>;

/** Wrong codes a parcel takes before only the office can deliver it: guessing a 6-digit code online stops here. */
export const WRONG_CODE_LIMIT = 5;
export const WRONG_CODE_MESSAGE = 'The one-time code is wrong';

/**
 * The server's half of the door rule (shared/door.ts `proofMissing`, the phone applies the same):
 * returns what was checked, or throws 422 `validation_error` naming each gap. A wrong code is kept
 * with the refused delivery (packages/refusedDelivery.ts), which is also what counts the guesses.
 */
export async function checkDoor(deps: Deps, row: PackageRow, input: DoorInput, occurredAt: number): Promise<DoorChecked> {
  const { db } = deps;
  const door = await doorRow(db, row.id);
  const requirements = await parcelRequirements(db, row, door ?? null);
  const choice = choiceOf(door);
  let codeOk: boolean | undefined;
  if (input.code !== undefined && requirements.code) {
    const wrong =
      (
        await db
          .select({ n: count() })
          .from(refusedDelivery)
          .where(and(eq(refusedDelivery.package_id, row.id), like(refusedDelivery.message, `%${WRONG_CODE_MESSAGE}%`)))
          .get()
      )?.n ?? 0;
    if (wrong >= WRONG_CODE_LIMIT) {
      throw new ApiError(409, 'conflict', `Too many wrong codes for parcel ${row.hawb}: the office must check it and deliver it`, [], {
        package: row.id,
        wrong_codes: wrong,
      });
    }
    codeOk = codeIs(door?.code, input.code);
  }
  const proof: DoorProof = {
    outcome: input.outcome,
    photos: input.photos.length,
    signature: input.signature !== undefined,
    recipient_name: input.recipient_name,
    door_scan: input.door_scan,
    age: input.age,
    code_ok: codeOk,
  };
  const today = localDay(occurredAt, await depotZone(deps, row.warehouse_id));
  const gaps = proofMissing(requirements, proof, { barcodes: [row.hawb], today, choice });
  if (gaps.length) {
    const message =
      gaps.length === 1 ? gaps[0]!.message : `Parcel ${row.hawb} lacks required proof: ${gaps.map((g) => g.message).join('; ')}`;
    throw new ApiError(422, 'validation_error', message, gaps, { package: row.id, requirements });
  }
  return checkedOf(requirements, proof, input, today, choice);
}

function checkedOf(
  requirements: ProofRequirements,
  proof: DoorProof,
  input: DoorInput,
  today: string,
  choice: DoorChecked['choice'],
): DoorChecked {
  const outcome = input.outcome ?? 'handed';
  const dob = input.age?.dob;
  // The age on the day, never the date of birth itself, is what is kept.
  const years = dob ? ageOn(dob, today) : null;
  return {
    outcome,
    requirements,
    signature: proof.signature,
    photos: proof.photos,
    recipient_name: !!input.recipient_name?.trim(),
    door_scan: !!input.door_scan,
    age:
      requirements.min_age != null && outcome === 'handed'
        ? { years, id_type: input.age?.id_type ?? null, min: requirements.min_age }
        : null,
    code: proof.code_ok === true,
    choice,
  };
}

/** Kept beside the proof: summaries, the label and the tracking page read it. */
export async function saveChecked(deps: Deps, packageId: number, checked: DoorChecked): Promise<void> {
  const now = deps.clock.now();
  const json = JSON.stringify(checked);
  await deps.db
    .insert(packageDoor)
    .values({ package_id: packageId, checked: json, created_at: now, updated_at: now })
    .onConflictDoUpdate({ target: packageDoor.package_id, set: { checked: json, updated_at: now } })
    .run();
}
