import { useEffect, useState } from 'preact/hooks';
import type { DriverSkills, PlanSettings as Settings } from '../../../shared/schemas/dispatch';
import { api, errorMessage, fieldErrors } from '../../api/client';
import { Button } from '../../ui/Button';
import { SelectField, TextField } from '../../ui/Field';
import { ErrorState, Loading } from '../../ui/States';
import { listWords } from '../resource/zodFields';
import { toast } from '../../ui/toast';
import { formToSettings, settingsToForm, type SettingsForm } from './planSettingsForm';

/**
 * What every plan starts from (issue 32): the courier's rates (so plans weigh hours as well as
 * kilometres), the default break, route limits and balance; and what each driver can do. A van's
 * own rates and skills are on its Vehicle form; a shift's own break on the shift.
 */
export default function PlanSettings() {
  const [form, setForm] = useState<SettingsForm | null>(null);
  const [drivers, setDrivers] = useState<DriverSkills[]>([]);
  const [skillText, setSkillText] = useState<Record<number, string>>({});
  const [error, setError] = useState<unknown>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [tick, setTick] = useState(0);

  useEffect(() => {
    let live = true;
    Promise.all([api.get<Settings>('dispatch/settings/'), api.get<{ results: DriverSkills[] }>('dispatch/driver-skills/')]).then(
      ([s, d]) => {
        if (!live) return;
        setForm(settingsToForm(s));
        setDrivers(d.results);
        setSkillText(Object.fromEntries(d.results.map((r) => [r.driver, r.skills.join(', ')])));
      },
      (err: unknown) => live && setError(err),
    );
    return () => {
      live = false;
    };
  }, [tick]);

  if (error) return <ErrorState error={error} onRetry={() => setTick((n) => n + 1)} />;
  if (!form) return <Loading />;
  const set = (k: keyof SettingsForm) => (v: string) => setForm({ ...form, [k]: v });
  const field = (k: keyof SettingsForm, label: string, hint?: string) => (
    <TextField name={k} label={label} value={form[k]} onValue={set(k)} inputMode="decimal" error={errors[k]} hint={hint} />
  );

  const save = async () => {
    // Numbers are checked here, on the field typed in: the server's answer names `break.minutes`, not the box.
    const bad = Object.fromEntries(
      (Object.keys(form) as (keyof SettingsForm)[])
        .filter((k) => k !== 'balance_by' && form[k].trim() !== '' && !Number.isFinite(Number(form[k].trim().replace(',', '.'))))
        .map((k) => [k, 'A number, e.g. 30']),
    );
    setErrors(bad);
    if (Object.keys(bad).length) return;
    setBusy(true);
    try {
      await api.put('dispatch/settings/', formToSettings(form));
      toast('Plan settings saved: the next plan uses them', 'ok');
      setTick((n) => n + 1);
    } catch (err) {
      setErrors(fieldErrors(err));
      toast(errorMessage(err), 'bad');
    } finally {
      setBusy(false);
    }
  };
  const saveSkills = async (d: DriverSkills) => {
    const skills = listWords(skillText[d.driver] ?? '');
    try {
      await api.put(`dispatch/driver-skills/${d.driver}/`, { skills });
      toast(`${d.driver_name}: skills saved`, 'ok');
    } catch (err) {
      toast(errorMessage(err), 'bad');
    }
  };

  return (
    <section class="stack" aria-labelledby="plan-settings-title">
      <div class="page-head">
        <h1 id="plan-settings-title">Plan settings</h1>
      </div>
      <div class="card stack">
        <h2>What a route costs</h2>
        <p class="muted">Empty rates: plans keep to the shortest distance. A van’s own rates (on its Vehicle) replace these.</p>
        <div class="form-grid">
          {field('per_hour', 'Per hour of route ($)', 'Driving and waiting')}
          {field('per_km', 'Per km ($)')}
          {field('per_vehicle', 'Per van used ($)')}
          {field('unserved_penalty', 'Per parcel left out ($)', 'Empty: every parcel that fits goes out')}
        </div>
        <h2>Break</h2>
        <div class="form-grid">
          {field('break_minutes', 'Break (minutes)', 'Empty: no break')}
          {field('break_after_min', 'Earliest, hours into the shift', 'e.g. 4.5')}
          {field('break_after_max', 'Latest, hours into the shift', 'e.g. 5.5')}
        </div>
        <h2>Limits and balance</h2>
        <div class="form-grid">
          {field('max_route_minutes', 'Longest route (hours)', 'Empty: the shift is the limit')}
          {field('max_stops', 'Most stops per route')}
          <SelectField
            name="balance_by"
            label="Share work evenly by"
            value={form.balance_by}
            onValue={set('balance_by')}
            options={[
              { value: '', label: 'Do not balance' },
              { value: 'duration', label: 'Hours' },
              { value: 'stops', label: 'Stops' },
            ]}
          />
          {form.balance_by ? field('balance_weight', 'How much (0 to 1)', 'Higher: more even, more kilometres') : null}
        </div>
        <div>
          <Button variant="primary" busy={busy} onClick={() => void save()}>
            Save plan settings
          </Button>
        </div>
      </div>
      <div class="card stack">
        <h2>What each driver can do</h2>
        <p class="muted">With the van’s skills, these decide who may take a parcel that needs them (two-person, ID check…).</p>
        {drivers.map((d) => (
          <div class="form-grid" key={d.driver}>
            <TextField
              name={`skills-${d.driver}`}
              label={d.driver_name}
              value={skillText[d.driver] ?? ''}
              onValue={(v) => setSkillText({ ...skillText, [d.driver]: v })}
              hint="Separated by commas"
            />
            <div>
              <Button onClick={() => void saveSkills(d)}>Save {d.driver_name}’s skills</Button>
            </div>
          </div>
        ))}
      </div>
    </section>
  );
}
