import { afterEach, describe, expect, it, vi } from 'vitest';
import { dismissToast, toast, toasts } from '../../client/ui/toast';

afterEach(() => {
  for (const t of toasts.get()) dismissToast(t.id);
  vi.useRealTimers();
});

describe('toasts', () => {
  it('a success replaces the success before it, so quick set-up saves show one toast, not a pile', () => {
    for (const name of ['Depot', 'Zone', 'Van', 'Driver', 'Shift', 'Rate']) toast(`${name} saved`, 'ok');
    expect(toasts.get().map((t) => t.text)).toEqual(['Rate saved']);
  });

  it('the same words again count on the toast showing; a problem stays beside later successes', () => {
    toast('Saved', 'ok');
    toast('Could not reach the server', 'bad');
    toast('Saved', 'ok');
    toast('Saved', 'ok');
    expect(toasts.get().map((t) => [t.text, t.tone, t.times])).toEqual([
      ['Could not reach the server', 'bad', 1],
      ['Saved', 'ok', 3],
    ]);
  });

  it('a repeated toast shows for its full time again from the repeat', () => {
    vi.useFakeTimers();
    toast('Saved', 'ok', 1000);
    vi.advanceTimersByTime(900);
    toast('Saved', 'ok', 1000);
    vi.advanceTimersByTime(900);
    expect(toasts.get()).toHaveLength(1);
    vi.advanceTimersByTime(200);
    expect(toasts.get()).toHaveLength(0);
  });
});
