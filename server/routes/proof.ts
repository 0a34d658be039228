import { z } from 'zod';
import { IdParams, ListQuery, pageOf } from '../../shared/schemas/common';
import { Proof, PROOF_SLOTS, ProofCreateBody, ProofUpdateBody, slotPath, type ProofSlot } from '../../shared/schemas/delivery';
import { ops } from '../http/catalogue';
import type { Deps } from '../deps';
import type { App } from '../http/env';
import { defineRoute } from '../http/route';
import type { SessionUser } from '../services/auth/session';
import { proofOf, proofParcel, updateDeliveryText, writableProofParcel, writeSlots } from '../services/packages/proof';
import { proofUploadPage } from '../services/packages/proofList';

const tags = ['Photo Upload in Assign Package'];
const group = 'web/Photo Upload in Assign Package';
const OP_OF_SLOT: Record<ProofSlot, string> = {
  photo_one: 'Photo One',
  photo_two: 'Photo Two',
  photo_three: 'Photo Three',
  photo_four: 'Photo Four',
  photo_five: 'Photo Five',
  signature: 'Signature',
};
function slotsOf(body: z.output<typeof ProofUpdateBody>) {
  return Object.fromEntries(PROOF_SLOTS.filter((s) => body[s] !== undefined).map((s) => [s, body[s]]));
}

/** Create and update alike: the slots the body names, then the delivery's recipient and note. */
async function setProof(
  deps: Deps,
  user: SessionUser,
  packageId: number,
  body: z.output<typeof ProofUpdateBody>,
  deviceId: string | undefined,
) {
  const row = await writableProofParcel(deps.db, user, packageId);
  await writeSlots(deps, user, row, slotsOf(body), deviceId);
  await updateDeliveryText(deps, user, row, { recipient_name: body.recipient_name, note: body.note }, deviceId);
  return proofOf(deps.db, row);
}

/**
 * The proof resource is keyed by the package id: `photo-upload/{id}/` is the proof of package
 * {id}. Photos are files uploaded first (POST file/), named here by id or client_id.
 */
export function proofRoutes(app: App): void {
  defineRoute(
    app,
    {
      method: 'get',
      path: '/photo-upload/',
      tags,
      access: 'package.view',
      query: ListQuery.extend({ package: IdParams.shape.id.optional() }),
      response: pageOf(Proof),
      catalogue: ops(group, 'List'),
      summary: 'Parcels with delivery proof (photos, signature or a delivery record), newest delivery first',
    },
    ({ deps, user, query, c }) => proofUploadPage(deps.db, user, query, c.req.url),
  );

  defineRoute(
    app,
    {
      method: 'post',
      path: '/photo-upload/',
      tags,
      access: 'delivery.manage',
      body: ProofCreateBody,
      response: Proof,
      status: 201,
      catalogue: ops(group, 'Create'),
      summary:
        "Set a parcel's proof slots (photo_one..photo_five, signature: file id or client_id) and, for a delivered parcel, the recipient and note",
      description: 'A file the server lacks answers 409 (upload it, then repeat). Drivers may not replace the proof of a delivered parcel.',
    },
    ({ deps, user, body, device }) => setProof(deps, user, body.package, body, device?.id),
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/photo-upload/{id}/',
      tags,
      access: 'package.view',
      params: IdParams,
      response: Proof,
      catalogue: ops(group, 'Retrieve'),
      summary: 'The proof of package {id}',
    },
    async ({ deps, user, params }) => proofOf(deps.db, await proofParcel(deps.db, user, params.id)),
  );

  defineRoute(
    app,
    {
      method: ['patch', 'put'],
      path: '/photo-upload/{id}/',
      tags,
      access: 'delivery.manage',
      params: IdParams,
      body: ProofUpdateBody,
      response: Proof,
      catalogue: ops(group, 'Update'),
      summary: 'Change proof slots (null clears one) and the recipient or note of a delivery',
    },
    ({ deps, user, params, body, device }) => setProof(deps, user, params.id, body, device?.id),
  );

  defineRoute(
    app,
    {
      method: 'delete',
      path: '/photo-upload/{id}/',
      tags,
      access: 'delivery.manage',
      params: IdParams,
      response: Proof,
      catalogue: ops(group, 'Delete'),
      summary: 'Clear every proof slot of a parcel (the files stay stored; the change is recorded)',
    },
    async ({ deps, user, params, device }) => {
      const row = await writableProofParcel(deps.db, user, params.id);
      await writeSlots(deps, user, row, Object.fromEntries(PROOF_SLOTS.map((s) => [s, null])), device?.id);
      return proofOf(deps.db, row);
    },
  );

  for (const slot of PROOF_SLOTS) {
    defineRoute(
      app,
      {
        method: 'delete',
        path: `/photo-upload/{id}/${slotPath(slot)}/`,
        tags,
        access: 'delivery.manage',
        params: IdParams,
        response: Proof,
        catalogue: ops(group, `Photo Upload Delete/${OP_OF_SLOT[slot]}`),
        summary: `Remove ${slot.replace('_', ' ')} from a parcel's proof`,
      },
      async ({ deps, user, params, device }) => {
        const row = await writableProofParcel(deps.db, user, params.id);
        await writeSlots(deps, user, row, { [slot]: null }, device?.id);
        return proofOf(deps.db, row);
      },
    );
  }
}
