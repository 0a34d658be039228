import { useEffect, useState } from 'preact/hooks';
import { api } from '../api/client';
import type { Page } from '../api/paging';

interface Step {
  key: string;
  label: string;
  href: string;
  done: (d: Facts) => boolean;
}
interface Facts {
  profile: { legal_name: string; trading_name: string; abn: string } | null;
  depots: { latitude: number | null }[];
  suburbs: number;
  rates: number;
  drivers: number;
  parcels: number;
}

/** A new office's first steps, each ticked off by what the database already holds, never by a click. */
const STEPS: Step[] = [
  {
    key: 'profile',
    label: 'Business profile: your trading name and ABN, for labels and tax invoices',
    href: '#/settings/business-profile',
    done: (f) => !!f.profile && (f.profile.trading_name || f.profile.legal_name) !== '' && f.profile.abn !== '',
  },
  {
    key: 'depot',
    label: 'A depot placed on the map: vans start and end there',
    href: '#/fleet/depots',
    done: (f) => f.depots.some((d) => d.latitude != null),
  },
  { key: 'geography', label: 'Geography: suburbs and postcodes, typed in or imported', href: '#/r/suburb', done: (f) => f.suburbs > 0 },
  { key: 'rates', label: 'A rate card, so every parcel is priced', href: '#/money/rate-cards', done: (f) => f.rates > 0 },
  { key: 'drivers', label: 'Drivers (employees with the driver role)', href: '#/r/employee', done: (f) => f.drivers > 0 },
  { key: 'parcel', label: 'A test parcel', href: '#/packages', done: (f) => f.parcels > 0 },
];

const count = async (path: string): Promise<number> => (await api.get<Page<unknown>>(path, { page_size: 1 })).count;
const orZero = (p: Promise<number>) => p.catch(() => 0);

/** Shown to administrators until every step is done; it reads only lists they may read. */
export function SetupChecklist({ parcels }: { parcels: number }) {
  const [facts, setFacts] = useState<Facts | null>(null);
  useEffect(() => {
    let live = true;
    Promise.all([
      api.get<Facts['profile']>('settings/business-profile/').catch(() => null),
      api.get<{ results: Facts['depots'] }>('dispatch/depot/').then(
        (r) => r.results,
        () => [],
      ),
      orZero(count('suburb/')),
      orZero(count('delivery-rate/')),
      orZero(count('employee/driver-list/')),
    ]).then(
      ([profile, depots, suburbs, rates, drivers]) => {
        if (live) setFacts({ profile, depots, suburbs, rates, drivers, parcels });
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [parcels]);
  if (!facts) return null;
  const done = STEPS.filter((s) => s.done(facts)).length;
  if (done === STEPS.length) return null;
  return (
    <div class="card" data-testid="setup-checklist">
      <h2 style={{ marginTop: 0 }}>
        First steps ({done} of {STEPS.length} done)
      </h2>
      <ol class="checklist" style={{ paddingLeft: '1.2rem', margin: 0 }}>
        {STEPS.map((s) => {
          const ok = s.done(facts);
          return (
            <li key={s.key} data-step={s.key} data-done={ok ? 'true' : 'false'} style={{ margin: '0.35rem 0' }}>
              <span aria-hidden="true">{ok ? '✓ ' : '○ '}</span>
              {ok ? <span class="muted">{s.label}</span> : <a href={s.href}>{s.label}</a>}
              <span class="sr-only">{ok ? ' (done)' : ' (to do)'}</span>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
