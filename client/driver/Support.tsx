import { useState } from 'preact/hooks';
import { Badge } from '../ui/Badge';
import { Button } from '../ui/Button';
import { TextField } from '../ui/Field';
import { toast } from '../ui/toast';
import { online, OnlineError } from './online';
import { OnlineState } from './OnlineState';
import { useOnline } from './useOnline';

interface Ticket {
  id: number;
  subject: string;
  message: string;
  status: 'open' | 'closed';
  response: string;
  created_at: string;
}

/** Tickets to the office (Driver Support); raised with signal, since an answer needs one anyway. */
export default function Support() {
  const res = useOnline<{ results: Ticket[] }>('driver-support/?page_size=50');
  const [subject, setSubject] = useState('');
  const [message, setMessage] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const send = async (e: Event) => {
    e.preventDefault();
    const errs: Record<string, string> = {};
    if (!subject.trim()) errs.subject = 'Say what it is about';
    if (!message.trim()) errs.message = 'Describe the problem';
    setErrors(errs);
    if (Object.keys(errs).length) return;
    setBusy(true);
    try {
      await online('POST', 'driver-support/', { subject: subject.trim(), message: message.trim() });
      setSubject('');
      setMessage('');
      toast('Sent to the office', 'ok');
      res.reload();
    } catch (err) {
      if (err instanceof OnlineError) setErrors({ ...err.fields, _: err.message });
    } finally {
      setBusy(false);
    }
  };
  const close = async (t: Ticket) => {
    try {
      await online('PATCH', `driver-support/${t.id}/`, { status: 'closed' });
      res.reload();
    } catch (err) {
      toast(err instanceof Error ? err.message : String(err), 'bad');
    }
  };
  return (
    <div class="drv-screen" data-testid="support">
      <h1>Support</h1>
      <form class="card stack" onSubmit={(e) => void send(e)} noValidate>
        <TextField label="Subject" value={subject} onValue={setSubject} error={errors.subject} />
        <TextField label="Message" value={message} onValue={setMessage} error={errors.message} />
        {errors._ && (
          <div class="form-error" role="alert">
            {errors._}
          </div>
        )}
        <Button type="submit" variant="primary" class="xl" busy={busy}>
          Send to the office
        </Button>
      </form>
      <h2>Your tickets</h2>
      <OnlineState {...res}>
        {(d) =>
          d.results.length === 0 ? (
            <p class="muted">No tickets yet.</p>
          ) : (
            <ul class="outbox">
              {d.results.map((t) => (
                <li key={t.id} class="outbox-row">
                  <div class="row between">
                    <strong>{t.subject}</strong>
                    <Badge tone={t.status === 'open' ? 'info' : 'muted'}>{t.status}</Badge>
                  </div>
                  <div>{t.message}</div>
                  {t.response && <div class="advice">Office: {t.response}</div>}
                  {t.status === 'open' && <Button onClick={() => void close(t)}>Close ticket</Button>}
                </li>
              ))}
            </ul>
          )
        }
      </OnlineState>
    </div>
  );
}
