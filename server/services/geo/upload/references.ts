import type { Db } from '../../../db/client';
import { pincode, state, suburb, zone } from '../../../db/schema/index';

interface Ref {
  id: number;
  name: string;
  deleted_at: number | null;
}
export interface SuburbRef extends Ref {
  state_id: number;
  zone_id: number | null;
}
export interface PincodeRef {
  id: number;
  deleted_at: number | null;
}

/** Everything an upload resolves names against, read once so 50,000 rows cost 4 queries, not 200,000. */
export interface ReferenceIndex {
  suburbById: Map<number, SuburbRef>;
  suburbsByName: Map<string, SuburbRef[]>;
  stateById: Map<number, Ref>;
  statesByKey: Map<string, Ref[]>;
  zoneById: Map<number, Ref>;
  zonesByKey: Map<string, Ref[]>;
  pincodes: Map<string, PincodeRef>;
}

export const key = (s: string) => s.trim().toLowerCase();
export const pincodeKey = (code: string, suburbId: number) => `${code}|${suburbId}`;

function push<T>(map: Map<string, T[]>, k: string, v: T): void {
  if (!k) return;
  const list = map.get(k);
  if (list) {
    if (!list.includes(v)) list.push(v);
  } else map.set(k, [v]);
}

export async function loadReferences(db: Db): Promise<ReferenceIndex> {
  const idx: ReferenceIndex = {
    suburbById: new Map(),
    suburbsByName: new Map(),
    stateById: new Map(),
    statesByKey: new Map(),
    zoneById: new Map(),
    zonesByKey: new Map(),
    pincodes: new Map(),
  };
  const suburbs = await db
    .select({ id: suburb.id, name: suburb.name, deleted_at: suburb.deleted_at, state_id: suburb.state_id, zone_id: suburb.zone_id })
    .from(suburb)
    .all();
  for (const s of suburbs) {
    idx.suburbById.set(s.id, s);
    push(idx.suburbsByName, key(s.name), s);
  }
  for (const s of await db.select({ id: state.id, name: state.name, code: state.code, deleted_at: state.deleted_at }).from(state).all()) {
    idx.stateById.set(s.id, s);
    push(idx.statesByKey, key(s.name), s);
    push(idx.statesByKey, key(s.code), s);
  }
  for (const z of await db.select({ id: zone.id, name: zone.name, code: zone.code, deleted_at: zone.deleted_at }).from(zone).all()) {
    idx.zoneById.set(z.id, z);
    push(idx.zonesByKey, key(z.name), z);
    push(idx.zonesByKey, key(z.code), z);
  }
  for (const p of await db
    .select({ id: pincode.id, code: pincode.code, suburb_id: pincode.suburb_id, deleted_at: pincode.deleted_at })
    .from(pincode)
    .all()) {
    idx.pincodes.set(pincodeKey(p.code, p.suburb_id), { id: p.id, deleted_at: p.deleted_at });
  }
  return idx;
}
