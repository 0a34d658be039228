import { useEffect, useState } from 'preact/hooks';
import {
  MESSAGE_CHANNELS,
  RECIPIENT_EVENTS,
  TEMPLATE_PLACEHOLDERS,
  type MessageChannel,
  type RecipientEvent,
  type RecipientSettings,
} from '../../../shared/schemas/recipients';
import { api, errorMessage, fieldErrors } from '../../api/client';
import { Button } from '../../ui/Button';
import { CheckField, Field, SelectField, TextField } from '../../ui/Field';
import { ErrorState, Loading } from '../../ui/States';
import { toast } from '../../ui/toast';
import { useRefData } from '../money/refs';
import type { IntegrationProps } from './props';
import { MessageLog } from './MessageLog';

const EVENT_LABELS: Record<RecipientEvent, string> = {
  out_for_delivery: 'Out for delivery',
  arriving_soon: 'Arriving soon',
  delivered: 'Delivered',
  failed: 'Missed delivery',
  returned_to_sender: 'Returned to sender',
};
const CHANNEL_LABELS: Record<MessageChannel, string> = { email: 'E-mail', sms: 'Text message (SMS)' };

interface Ratings {
  results: { driver: number | null; driver_name: string | null; count: number; average: number }[];
}

/**
 * What the company's recipients hear and see: which events, by which channels, under which name, in
 * which words, and the logo on the tracking page. Below, the recipients' ratings per driver.
 */
export function RecipientMessages({ isCompany, canManage }: IntegrationProps) {
  const companies = useRefData('company', !isCompany);
  const [company, setCompany] = useState('');
  const [form, setForm] = useState<RecipientSettings | null>(null);
  const [ratings, setRatings] = useState<Ratings | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const query = isCompany ? '' : `?company=${company}`;
  const ready = isCompany || company !== '';

  const load = () => {
    if (!ready) return;
    setError(null);
    setForm(null);
    Promise.all([api.get<RecipientSettings>(`recipient-settings/${query}`), api.get<Ratings>(`report/driver-ratings/${query}`)])
      .then(([s, r]) => {
        setForm(s);
        setRatings(r);
      })
      .catch(setError);
  };
  useEffect(load, [company]);

  const toggle = <T extends string>(list: readonly T[], value: T, on: boolean) => (on ? [...list, value] : list.filter((v) => v !== value));
  const save = async () => {
    if (!form) return;
    setBusy(true);
    setErrors({});
    try {
      setForm(
        await api.patch<RecipientSettings>(`recipient-settings/${query}`, {
          events: form.events,
          channels: form.channels,
          sender_name: form.sender_name,
          templates: form.templates,
          stops_away: form.stops_away,
          reschedule_days: form.reschedule_days,
        }),
      );
      toast('Recipient messages saved', 'ok');
    } catch (err) {
      setErrors(fieldErrors(err));
      toast(errorMessage(err), 'bad');
    } finally {
      setBusy(false);
    }
  };
  const uploadLogo = async (file: File) => {
    const data = new FormData();
    data.set('file', file);
    data.set('kind', 'logo');
    try {
      const stored = await api.post<{ id: number }>('file/', data);
      setForm(await api.patch<RecipientSettings>(`recipient-settings/${query}`, { logo_file: stored.id }));
      toast('Logo saved', 'ok');
    } catch (err) {
      toast(errorMessage(err), 'bad');
    }
  };

  return (
    <div class="stack" style={{ maxWidth: 860 }}>
      {!isCompany && (
        <SelectField
          label="Company"
          name="recipient-company"
          value={company}
          onValue={setCompany}
          options={companies.options}
          placeholder="Choose a company"
        />
      )}
      {ready && error != null && <ErrorState error={error} onRetry={load} />}
      {ready && !form && error == null && <Loading />}
      {form && (
        <form
          class="card stack"
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
          aria-label="Recipient messages"
        >
          <fieldset class="stack">
            <legend>Tell recipients when</legend>
            {RECIPIENT_EVENTS.map((ev) => (
              <CheckField
                key={ev}
                name={`event-${ev}`}
                label={EVENT_LABELS[ev]}
                checked={form.events.includes(ev)}
                onValue={(on) => setForm({ ...form, events: toggle(form.events, ev, on) })}
              />
            ))}
          </fieldset>
          <fieldset class="stack">
            <legend>By</legend>
            {MESSAGE_CHANNELS.map((ch) => (
              <CheckField
                key={ch}
                name={`channel-${ch}`}
                label={CHANNEL_LABELS[ch]}
                checked={form.channels.includes(ch)}
                onValue={(on) => setForm({ ...form, channels: toggle(form.channels, ch, on) })}
              />
            ))}
          </fieldset>
          <TextField
            label="Sender name"
            value={form.sender_name}
            onValue={(v) => setForm({ ...form, sender_name: v })}
            error={errors.sender_name}
            maxLength={80}
          />
          <TextField
            label="Arriving soon: stops before theirs"
            type="number"
            min={0}
            max={20}
            value={String(form.stops_away)}
            error={errors.stops_away}
            hint="Also when the driver's position shows on their tracking page. 0: never."
            onValue={(v) => setForm({ ...form, stops_away: Number(v) })}
          />
          <TextField
            label="Another day: up to how many days ahead"
            type="number"
            min={1}
            max={30}
            value={String(form.reschedule_days)}
            error={errors.reschedule_days}
            onValue={(v) => setForm({ ...form, reschedule_days: Number(v) })}
          />
          <p class="muted" style={{ margin: 0 }}>
            Placeholders: {TEMPLATE_PLACEHOLDERS.map((p) => `{${p}}`).join(' ')}. Every message also ends with a link to stop messages.
          </p>
          {RECIPIENT_EVENTS.map((ev) => (
            <Field key={ev} label={`Text: ${EVENT_LABELS[ev]}`} error={errors[`templates.${ev}`]} wide>
              {({ id, describedBy }) => (
                <textarea
                  id={id}
                  class="input"
                  rows={2}
                  maxLength={480}
                  aria-describedby={describedBy}
                  value={form.templates[ev]}
                  onInput={(e) =>
                    setForm({ ...form, templates: { ...form.templates, [ev]: (e.currentTarget as HTMLTextAreaElement).value } })
                  }
                />
              )}
            </Field>
          ))}
          <Field label="Logo on the tracking page" hint={form.logo_file ? `Current logo: file ${form.logo_file}` : 'No logo yet'}>
            {({ id, describedBy }) => (
              <input
                id={id}
                type="file"
                accept="image/*"
                aria-describedby={describedBy}
                disabled={!canManage && !isCompany}
                onChange={(e) => {
                  const f = (e.currentTarget as HTMLInputElement).files?.[0];
                  if (f) void uploadLogo(f);
                }}
              />
            )}
          </Field>
          <div>
            <Button variant="primary" type="submit" busy={busy}>
              Save
            </Button>
          </div>
        </form>
      )}
      {form && ratings && (
        <div class="card stack">
          <h2 style={{ margin: 0 }}>Recipients' ratings per driver</h2>
          {ratings.results.length === 0 ? (
            <p class="muted" style={{ margin: 0 }}>
              No ratings yet.
            </p>
          ) : (
            <table class="table">
              <thead>
                <tr>
                  <th>Driver</th>
                  <th>Average</th>
                  <th>Ratings</th>
                </tr>
              </thead>
              <tbody>
                {ratings.results.map((r) => (
                  <tr key={r.driver ?? 0}>
                    <td>{r.driver_name ?? '—'}</td>
                    <td>{r.average.toFixed(2)} ★</td>
                    <td>{r.count}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      )}
      {ready && <MessageLog company={isCompany ? undefined : company} title="Sent and failed messages" />}
    </div>
  );
}
