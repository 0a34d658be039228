import { COLLECTION_FAIL, type CollectionFailReason } from '../../shared/collection';
import { DRIVER_ACTIONS } from '../../shared/driverActions';
import type { ActionInput, FileInput } from './types';

/** Where and when the driver did it: device time and, where known, position (DESIGN.md section 6). */
export interface Place {
  latitude?: number;
  longitude?: number;
}

function stamp(now: number, place: Place = {}): Record<string, unknown> {
  const out: Record<string, unknown> = { occurred_at: new Date(now).toISOString() };
  if (place.latitude != null && place.longitude != null) {
    out.latitude = place.latitude;
    out.longitude = place.longitude;
  }
  return out;
}

/** The parcel as printed on its label, for the driver's lists: "DRV-1001 · Sam Receiver". */
export interface LabelOf {
  hawb: string;
  customer_name?: string | null;
}
const labelOf = (p: LabelOf) => (p.customer_name ? `${p.hawb} · ${p.customer_name}` : p.hawb);

/** The driver's pickup scan at a pickup point (server/routes/pickups/scan.ts), queued in the outbox. */
const PICKUP_SCAN_PATH = 'pickup-point-scan/package-scan/';

function named(files: FileInput[], newId: () => string): FileInput[] {
  return files.map((f) => ({ ...f, clientId: f.clientId ?? newId() }));
}

/**
 * The actions a driver takes, as the ordinary REST calls they replay as (paths from their one
 * declaration, shared/driverActions.ts). Each carries the device time it happened and names the
 * parcel it changes; the pending view computes the change from the path with the shared rules, so
 * the label is for the screen only and `patch` for versions that predate them.
 */
/** The door fields of a delivery (shared/schemas/door.ts DoorFields). */
export interface DoorFieldsIn {
  outcome?: 'handed' | 'safe_place' | 'neighbour';
  door_scan?: string;
  age?: { dob?: string; id_type?: string };
  code?: string;
}

export function actionBuilders(now: () => number, newId: () => string) {
  return {
    /** `parcel`: the phone's copy when the code is on its list (its id marks a parcel the phone had). */
    inboundScan(barcode: string, place?: Place, parcel?: LabelOf & { id?: number }): ActionInput {
      const code = barcode.trim();
      return {
        path: DRIVER_ACTIONS.load.path(),
        body: { barcode: code, ...stamp(now(), place) },
        effect: {
          hawb: code,
          ...(parcel?.id != null ? { packageId: parcel.id } : {}),
          patch: { status: 'out_for_delivery', is_scanned: true },
        },
        label: `Load ${parcel ? labelOf(parcel) : code}`,
      };
    },
    /**
     * A parcel collected at a pickup point (`pickup_requested -> picked_up`), queued like a scan onto
     * the van. `point`: the pickup point whose QR code the driver scanned there, sent with its code so
     * the server can let the driver collect what waits there for nobody.
     */
    pickupScan(
      barcode: string,
      point?: { id: number; code: string } | null,
      place?: Place,
      parcel?: LabelOf & { id?: number },
    ): ActionInput {
      const code = barcode.trim();
      const body: Record<string, unknown> = { barcode: code, ...stamp(now(), place) };
      if (point) {
        body.pickup_point = point.id;
        body.code = point.code;
      }
      return {
        path: PICKUP_SCAN_PATH,
        body,
        effect: { hawb: code, ...(parcel?.id != null ? { packageId: parcel.id } : {}), patch: { status: 'picked_up' } },
        label: `Pick up ${parcel ? labelOf(parcel) : code}`,
      };
    },
    deliver(
      packageId: number,
      opts: {
        photos?: FileInput[];
        signature?: FileInput;
        recipient_name?: string;
        note?: string;
        parcel?: LabelOf;
        door?: DoorFieldsIn;
        /** What was collected at the door (cash on delivery, shared/cod.ts); the server checks it with the same rule. */
        collection?: { amount_cents: number; method: 'cash' | 'card' };
      } & Place = {},
    ): ActionInput {
      const photos = named(opts.photos ?? [], newId).map((f) => ({ ...f, kind: f.kind ?? ('photo' as const) }));
      const signature = opts.signature ? named([opts.signature], newId).map((f) => ({ ...f, kind: 'signature' as const }))[0] : undefined;
      const body: Record<string, unknown> = { photos: photos.map((f) => f.clientId), ...stamp(now(), opts) };
      if (signature) body.signature = signature.clientId;
      if (opts.recipient_name) body.recipient_name = opts.recipient_name;
      if (opts.note) body.note = opts.note;
      // What the door needed (issue 34): the server checks it with the same rule the phone did.
      for (const [k, v] of Object.entries(opts.door ?? {})) if (v !== undefined) body[k] = v;
      if (opts.collection) body.collection = opts.collection;
      return {
        path: DRIVER_ACTIONS.deliver.path(packageId),
        body,
        files: signature ? [...photos, signature] : photos,
        effect: { packageId, patch: { status: 'delivered' } },
        label: `Deliver ${opts.parcel ? labelOf(opts.parcel) : `parcel ${packageId}`}`,
      };
    },
    fail(
      packageId: number,
      opts: { failed_delivery_status: number; note?: string; photo?: FileInput; parcel?: LabelOf } & Place,
    ): ActionInput {
      const photo = opts.photo ? named([opts.photo], newId)[0] : undefined;
      const body: Record<string, unknown> = { failed_delivery_status: opts.failed_delivery_status, ...stamp(now(), opts) };
      if (opts.note) body.note = opts.note;
      if (photo) body.photo = photo.clientId;
      return {
        path: DRIVER_ACTIONS.fail.path(packageId),
        body,
        files: photo ? [photo] : [],
        effect: { packageId, patch: { status: 'failed' } },
        label: `Could not deliver ${opts.parcel ? labelOf(opts.parcel) : `parcel ${packageId}`}`,
      };
    },
    /**
     * A collection that could not be made at the pickup point (issue 32, shared/collection.ts): the
     * parcel leaves the driver and the route, so the phone shows it as nobody's until the server answers.
     */
    collectionFail(packageId: number, opts: { reason: CollectionFailReason; note?: string; parcel?: LabelOf } & Place): ActionInput {
      const body: Record<string, unknown> = { reason: opts.reason, ...stamp(now(), opts) };
      if (opts.note) body.note = opts.note;
      return {
        path: COLLECTION_FAIL.path(packageId),
        body,
        effect: { packageId, patch: { assigned_to_id: null } },
        label: `Not collected ${opts.parcel ? labelOf(opts.parcel) : `parcel ${packageId}`}`,
      };
    },
  };
}
export type ActionBuilders = ReturnType<typeof actionBuilders>;
