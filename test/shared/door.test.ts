import { describe, expect, it } from 'vitest';
import {
  ageOn,
  codeMatches,
  hashCode,
  NO_REQUIREMENTS,
  proofMissing,
  raiseRequirements,
  type DoorContext,
  type DoorProof,
  type ProofRequirements,
  type RecipientChoice,
} from '../../shared/door';

const req = (r: Partial<ProofRequirements>): ProofRequirements => ({ ...NO_REQUIREMENTS, ...r });
const ctx = (c: Partial<DoorContext> = {}): DoorContext => ({ barcodes: ['HAWB-1'], today: '2026-11-28', choice: null, ...c });
const proof = (p: Partial<DoorProof> = {}): DoorProof => ({ photos: 0, signature: false, ...p });
const paths = (r: ProofRequirements, p: DoorProof, c = ctx()) => proofMissing(r, p, c).map((g) => g.path);
const choice = (kind: RecipientChoice['kind'], extra: Partial<RecipientChoice> = {}): RecipientChoice => ({
  kind,
  note: 'the back door',
  neighbour: kind === 'neighbour' ? 'Sam at no. 12' : null,
  at: '2026-11-28T00:00:00.000Z',
  late: false,
  ...extra,
});

describe('the door rule (shared by the phone and the server)', () => {
  it('asks nothing of a parcel that needs nothing, and names each missing proof', () => {
    expect(paths(NO_REQUIREMENTS, proof())).toEqual([]);
    expect(
      paths(req({ signature: true, photos: 2, recipient_name: true, scan: true, min_age: 18, code: true }), proof({ photos: 1 })),
    ).toEqual(['photos', 'signature', 'recipient_name', 'door_scan', 'age', 'code']);
  });

  it("checks the scan at the door against the parcel's own label", () => {
    const r = req({ scan: true });
    expect(paths(r, proof({ door_scan: 'OTHER-9' }))).toEqual(['door_scan']);
    expect(paths(r, proof({ door_scan: 'hawb-1' }))).toEqual([]);
  });

  it("counts the age on the recipient's local date, birthdays included, and refuses the under-age", () => {
    const r = req({ min_age: 18 });
    expect(ageOn('2008-11-28', '2026-11-28')).toBe(18);
    expect(ageOn('2008-11-29', '2026-11-28')).toBe(17);
    expect(ageOn('2008-02-29', '2026-02-28')).toBe(17);
    expect(ageOn('2008-02-29', '2026-03-01')).toBe(18);
    expect(ageOn('2008-02-30', '2026-03-01')).toBeNull();
    expect(paths(r, proof({ age: { dob: '2008-11-28' } }))).toEqual([]);
    expect(proofMissing(r, proof({ age: { dob: '2008-11-29' } }), ctx())[0]?.message).toMatch(/17: under 18/);
    // The same birth date a day later in Sydney than in UTC: the local day decides.
    expect(paths(r, proof({ age: { dob: '2008-11-29' } }), ctx({ today: '2026-11-29' }))).toEqual([]);
    expect(paths(r, proof({ age: { dob: '2030-01-01' } }))).toEqual(['age.dob']);
    expect(paths(r, proof({ age: { id_type: 'passport' } }))).toEqual([]);
  });

  it('needs a typed code that matched, and says when it was wrong', () => {
    const r = req({ code: true });
    expect(proofMissing(r, proof(), ctx())[0]?.message).toMatch(/Ask the recipient/);
    expect(proofMissing(r, proof({ code_ok: false }), ctx())[0]?.message).toBe('The one-time code is wrong');
    expect(paths(r, proof({ code_ok: true }))).toEqual([]);
  });

  it('leaves a parcel only where the recipient allowed it, always with a photo, never one that needs ID or a code', () => {
    expect(paths(NO_REQUIREMENTS, proof({ outcome: 'safe_place', photos: 1 }))).toEqual(['outcome']);
    expect(paths(NO_REQUIREMENTS, proof({ outcome: 'safe_place' }), ctx({ choice: choice('safe_place') }))).toEqual(['photos']);
    // Nobody signs for a safe place: the signature requirement gives way to the photo.
    expect(paths(req({ signature: true }), proof({ outcome: 'safe_place', photos: 1 }), ctx({ choice: choice('safe_place') }))).toEqual([]);
    expect(paths(NO_REQUIREMENTS, proof({ outcome: 'neighbour', photos: 1 }), ctx({ choice: choice('safe_place') }))).toEqual([
      'outcome',
      'recipient_name',
    ]);
    expect(
      paths(NO_REQUIREMENTS, proof({ outcome: 'neighbour', photos: 1, recipient_name: 'Sam' }), ctx({ choice: choice('neighbour') })),
    ).toEqual([]);
    expect(paths(req({ min_age: 18 }), proof({ outcome: 'safe_place', photos: 1 }), ctx({ choice: choice('safe_place') }))).toEqual([
      'outcome',
    ]);
    expect(paths(NO_REQUIREMENTS, proof({ outcome: 'safe_place', photos: 1 }), ctx({ choice: choice('collect_at_depot') }))).toEqual([
      'outcome',
    ]);
  });

  it("a parcel only ever raises its company's default", () => {
    const base = req({ signature: true, photos: 1, min_age: 18 });
    expect(raiseRequirements(base, { signature: false, photos: 0, min_age: 16, code: true })).toEqual(
      req({ signature: true, photos: 1, min_age: 18, code: true }),
    );
    expect(raiseRequirements(base, { photos: 9, min_age: 21 })).toMatchObject({ photos: 5, min_age: 21 });
    expect(raiseRequirements(base, null)).toEqual(base);
  });

  it("the phone's salted hash recognises the code and nothing else", async () => {
    const h = { hash: await hashCode('042917', 'salt-1', 1000), salt: 'salt-1', iterations: 1000 };
    expect(await codeMatches('042917', h)).toBe(true);
    expect(await codeMatches(' 042917 ', h)).toBe(true);
    expect(await codeMatches('042918', h)).toBe(false);
    expect(await codeMatches('42917', h)).toBe(false);
    expect(await codeMatches('042917', { ...h, salt: 'salt-2' })).toBe(false);
  });
});
