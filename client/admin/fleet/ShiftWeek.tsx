import { useEffect, useState } from 'preact/hooks';
import type { Shift } from '../../../shared/schemas/dispatch';
import { api, errorMessage } from '../../api/client';
import { fetchAll } from '../../api/paging';
import { Button } from '../../ui/Button';
import { SelectField, TextField } from '../../ui/Field';
import { Empty } from '../../ui/States';
import { toast } from '../../ui/toast';
import { REFS } from '../resource/declarations';
import { useRefOptions } from '../resource/refOptions';
import { addDays, defaultPattern, expandPattern, mondayOf, WEEKDAYS, type WeekPattern } from './weekPattern';

function today(): string {
  // The office's calendar day, from the browser's clock and zone.
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/**
 * A driver's week: which days they work and when, with their van and depot, applied to one or more
 * weeks as the dated shifts the planner reads. Below, that driver's shifts of the chosen week, each
 * removable. Days that already have a shift are left as they are (the server refuses overlaps).
 */
export default function ShiftWeek() {
  const drivers = useRefOptions(REFS.driver);
  const vehicles = useRefOptions({ endpoint: 'vehicle', label: (r) => String(r.name ?? r.id) });
  const depots = useRefOptions(REFS.warehouse);
  const [driver, setDriver] = useState('');
  const [vehicle, setVehicle] = useState('');
  const [depot, setDepot] = useState('');
  const [from, setFrom] = useState(() => mondayOf(addDays(today(), 1)));
  const [weeks, setWeeks] = useState('1');
  const [pattern, setPattern] = useState<WeekPattern>(defaultPattern);
  const [problems, setProblems] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [shifts, setShifts] = useState<Shift[] | null>(null);
  const [tick, setTick] = useState(0);
  const monday = mondayOf(from);

  useEffect(() => {
    if (!driver) {
      setShifts(null);
      return;
    }
    let live = true;
    fetchAll<Shift>(`driver-shift/?driver=${driver}`).then(
      (rows) => {
        if (live)
          setShifts(rows.filter((s) => s.date >= monday && s.date <= addDays(monday, 6)).sort((a, b) => a.date.localeCompare(b.date)));
      },
      (err: unknown) => {
        if (live) toast(errorMessage(err), 'bad');
      },
    );
    return () => {
      live = false;
    };
  }, [driver, monday, tick]);

  const setDay = (i: number, patch: Partial<WeekPattern[number]>) => setPattern((p) => p.map((d, j) => (j === i ? { ...d, ...patch } : d)));

  const apply = async () => {
    const n = Math.min(8, Math.max(1, Number(weeks) || 1));
    const { shifts: planned, problems: found } = expandPattern(pattern, from, n);
    setProblems(found);
    if (found.length || !driver) return;
    setBusy(true);
    const refused: string[] = [];
    let made = 0;
    for (const s of planned) {
      try {
        await api.post('driver-shift/', {
          driver: Number(driver),
          ...s,
          vehicle: vehicle ? Number(vehicle) : null,
          start_warehouse: depot ? Number(depot) : null,
          end_warehouse: depot ? Number(depot) : null,
        });
        made += 1;
      } catch (err) {
        refused.push(`${s.date}: ${errorMessage(err)}`);
      }
    }
    setBusy(false);
    setProblems(refused);
    toast(`${made} shift(s) created${refused.length ? `, ${refused.length} refused` : ''}`, refused.length ? 'bad' : 'ok');
    setTick((t) => t + 1);
  };

  const remove = async (s: Shift) => {
    try {
      await api.delete(`driver-shift/${s.id}/`);
      setTick((t) => t + 1);
    } catch (err) {
      toast(errorMessage(err), 'bad');
    }
  };

  return (
    <section class="stack" aria-labelledby="shifts-title">
      <div class="page-head">
        <h1 id="shifts-title">Driver shifts</h1>
      </div>
      <div class="card stack">
        <div class="form-grid">
          <SelectField
            name="driver"
            label="Driver"
            value={driver}
            onValue={setDriver}
            options={drivers.options}
            placeholder="Choose…"
            required
          />
          <SelectField
            name="vehicle"
            label="Vehicle"
            value={vehicle}
            onValue={setVehicle}
            options={vehicles.options}
            placeholder="— none —"
          />
          <SelectField
            name="depot"
            label="Depot (start and end)"
            value={depot}
            onValue={setDepot}
            options={depots.options}
            placeholder="— none —"
          />
          <TextField name="from" label="Week starting" type="date" value={from} onValue={setFrom} hint={`From Monday ${monday}`} />
          <TextField name="weeks" label="Weeks" inputMode="numeric" value={weeks} onValue={setWeeks} hint="1 to 8" />
        </div>
        <div class="table-wrap">
          <table class="table" aria-label="Week pattern">
            <thead>
              <tr>
                <th>Day</th>
                <th>Works</th>
                <th>Start</th>
                <th>End</th>
              </tr>
            </thead>
            <tbody>
              {pattern.map((d, i) => (
                <tr key={WEEKDAYS[i]}>
                  <td>{WEEKDAYS[i]}</td>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`${WEEKDAYS[i]} works`}
                      checked={d.works}
                      onChange={(e) => setDay(i, { works: (e.currentTarget as HTMLInputElement).checked })}
                    />
                  </td>
                  <td>
                    <input
                      class="input"
                      type="time"
                      aria-label={`${WEEKDAYS[i]} start`}
                      value={d.start}
                      disabled={!d.works}
                      onInput={(e) => setDay(i, { start: (e.currentTarget as HTMLInputElement).value })}
                    />
                  </td>
                  <td>
                    <input
                      class="input"
                      type="time"
                      aria-label={`${WEEKDAYS[i]} end`}
                      value={d.end}
                      disabled={!d.works}
                      onInput={(e) => setDay(i, { end: (e.currentTarget as HTMLInputElement).value })}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {problems.length > 0 && (
          <ul class="form-error" role="alert">
            {problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        )}
        <div>
          <Button variant="primary" busy={busy} disabled={!driver} onClick={() => void apply()}>
            Create shifts
          </Button>
        </div>
      </div>
      <div class="card">
        <h2 style={{ marginTop: 0 }}>Week of {monday}</h2>
        {!driver ? (
          <p class="muted">Choose a driver to see their shifts.</p>
        ) : !shifts ? (
          <p class="muted">Loading…</p>
        ) : shifts.length === 0 ? (
          <Empty title="No shifts this week" />
        ) : (
          <div class="table-wrap">
            <table class="table" data-testid="week-shifts">
              <thead>
                <tr>
                  <th>Date</th>
                  <th>Time</th>
                  <th>Vehicle</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {shifts.map((s) => (
                  <tr key={s.id}>
                    <td>{s.date}</td>
                    <td>
                      {s.start_time}–{s.end_time}
                    </td>
                    <td>{s.vehicle_name ?? '—'}</td>
                    <td>
                      <Button size="small" onClick={() => void remove(s)}>
                        Remove
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
    </section>
  );
}
