import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  allowedTransitions,
  CANCELLABLE_STATUSES,
  offerableToDriver,
  canTransition,
  FINAL_STATUSES,
  isFinal,
  mustReturn,
  PACKAGE_STATUSES,
  STATUS_LABELS,
  transitionProblem,
} from '../../shared/lifecycle';

describe('package lifecycle table', () => {
  it('follows DESIGN.md section 7 on the main path', () => {
    const path = ['created', 'received', 'assigned', 'out_for_delivery', 'delivered'] as const;
    for (let i = 1; i < path.length; i++) expect(canTransition(path[i - 1], path[i])).toBe(true);
    expect(canTransition('pickup_requested', 'picked_up')).toBe(true);
    expect(canTransition('picked_up', 'received')).toBe(true);
    expect(canTransition('failed', 'out_for_delivery')).toBe(true);
    expect(canTransition('failed', 'returned')).toBe(true);
    expect(canTransition('returned', 'assigned')).toBe(true);
    expect(canTransition('returned', 'returned_to_sender')).toBe(true);
    expect(canTransition('out_for_delivery', 'cancelled')).toBe(false);
    expect(canTransition('created', 'delivered')).toBe(false);
  });

  it('lets nothing leave a final state, even forced, and cancels only before the van', () => {
    for (const f of FINAL_STATUSES) {
      expect(allowedTransitions(f)).toEqual([]);
      for (const to of PACKAGE_STATUSES) expect(transitionProblem(f, to, { force: true })).toBe('final');
    }
    for (const s of PACKAGE_STATUSES) expect(canTransition(s, 'cancelled')).toBe(CANCELLABLE_STATUSES.includes(s));
  });

  it('every status has a label and a table row; every target is a status', () => {
    fc.assert(
      fc.property(fc.constantFrom(...PACKAGE_STATUSES), (s) => {
        expect(STATUS_LABELS[s]).toMatch(/\S/);
        for (const to of allowedTransitions(s)) expect(PACKAGE_STATUSES).toContain(to);
        expect(isFinal(s)).toBe(allowedTransitions(s).length === 0);
      }),
    );
  });

  it('after the last attempt a failed parcel may only be returned, even when an admin forces it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 }), fc.integer({ min: 1, max: 6 }), (attempts, max) => {
        const must = mustReturn(attempts, max);
        expect(must).toBe(attempts >= max);
        expect(transitionProblem('failed', 'out_for_delivery', { attempts, maxAttempts: max })).toBe(must ? 'must_return' : null);
        expect(transitionProblem('failed', 'returned', { attempts, maxAttempts: max })).toBeNull();
        // Issue 36: or straight back to the sender (no depot receipt recorded that did not happen).
        expect(transitionProblem('failed', 'returned_to_sender', { attempts, maxAttempts: max })).toBeNull();
        expect(transitionProblem('failed', 'delivered', { attempts, maxAttempts: max, force: true })).toBe(must ? 'must_return' : null);
        expect(offerableToDriver('failed', attempts, max)).toBe(!must);
      }),
    );
    expect(transitionProblem('failed', 'failed', { force: true })).toBe('not_allowed');
    expect(transitionProblem('assigned', 'delivered', { force: true })).toBeNull();
  });
});
