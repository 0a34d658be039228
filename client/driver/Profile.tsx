import { useEffect, useState } from 'preact/hooks';
import type { SessionInfo } from '../sync/index';
import { Button } from '../ui/Button';
import { ConfirmDialog } from '../ui/Dialog';
import { TextField } from '../ui/Field';
import { toast } from '../ui/toast';
import { engine, wipeDevice } from './engine';
import { useSyncStatus } from './hooks';
import { online, OnlineError } from './online';
import { setOnDuty } from './positions';
import { commitAll } from './undo';
import { useOnline } from './useOnline';

interface Profile {
  name: string;
  email: string;
  phone: string;
}

function Details() {
  const res = useOnline<Profile>('profile/');
  const [name, setName] = useState('');
  const [phone, setPhone] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (res.data) {
      setName(res.data.name);
      setPhone(res.data.phone);
    }
  }, [res.data]);
  if (res.error) return <p class="muted">{res.error.offline ? 'Your details can be changed when you have signal.' : res.error.message}</p>;
  const save = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    try {
      await online('PATCH', 'profile/', { name: name.trim(), phone: phone.trim() });
      toast('Details saved', 'ok');
    } catch (err) {
      toast(err instanceof Error ? err.message : String(err), 'bad');
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="card stack" onSubmit={(e) => void save(e)}>
      <TextField label="Name" value={name} onValue={setName} autoComplete="name" />
      <TextField label="Phone" type="tel" value={phone} onValue={setPhone} autoComplete="tel" />
      <Button type="submit" class="xl" busy={busy} disabled={!res.data}>
        Save details
      </Button>
    </form>
  );
}

function Password() {
  const [oldPw, setOld] = useState('');
  const [newPw, setNew] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const change = async (e: Event) => {
    e.preventDefault();
    if (newPw.length < 8) {
      setErrors({ new_password: 'At least 8 characters' });
      return;
    }
    setBusy(true);
    setErrors({});
    try {
      await online('POST', 'profile/change-password/', { old_password: oldPw, new_password: newPw });
      setOld('');
      setNew('');
      toast('Password changed', 'ok');
    } catch (err) {
      if (err instanceof OnlineError) setErrors({ ...err.fields, _: err.message });
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="card stack" onSubmit={(e) => void change(e)} noValidate>
      <TextField
        label="Current password"
        type="password"
        autoComplete="current-password"
        value={oldPw}
        onValue={setOld}
        error={errors.old_password}
      />
      <TextField
        label="New password"
        type="password"
        autoComplete="new-password"
        value={newPw}
        onValue={setNew}
        error={errors.new_password}
      />
      {errors._ && (
        <div class="form-error" role="alert">
          {errors._}
        </div>
      )}
      <Button type="submit" class="xl" busy={busy}>
        Change password
      </Button>
    </form>
  );
}

/** Logging out clears the phone, so work still waiting to be sent needs the driver's explicit say-so. */
function Logout() {
  const status = useSyncStatus();
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const waiting = status.held + status.queued + status.sending + status.rejected;
  const out = async () => {
    setBusy(true);
    await wipeDevice();
    window.location.hash = '#/driver';
    window.location.reload();
  };
  const start = async () => {
    // Off duty: the van's last positions go with the rest of the day's work.
    await setOnDuty(false);
    await commitAll();
    await engine().syncNow();
    const left = (await engine().outbox()).length;
    if (left) setAsking(true);
    else await out();
  };
  return (
    <>
      <Button class="xl" variant="danger" busy={busy} onClick={() => void start()} data-testid="logout">
        Log out
      </Button>
      {waiting > 0 && (
        <p class="muted">
          {waiting} action{waiting === 1 ? ' is' : 's are'} not yet with the office.
        </p>
      )}
      {asking && (
        <ConfirmDialog
          title="Unsent work will be lost"
          danger
          confirmLabel="Log out and lose it"
          busy={busy}
          onClose={() => setAsking(false)}
          onConfirm={() => void out()}
          message={
            <p>
              {waiting} action{waiting === 1 ? ' has' : 's have'} not reached the office. Get signal and open Sync first, or log out anyway
              and lose {waiting === 1 ? 'it' : 'them'}.
            </p>
          }
        />
      )}
    </>
  );
}

export default function ProfileScreen({ me }: { me: SessionInfo }) {
  return (
    <div class="drv-screen" data-testid="profile">
      <h1>Profile</h1>
      <p>
        {me.name} · {me.email}
      </p>
      <h2>Details</h2>
      <Details />
      <h2>Password</h2>
      <Password />
      <h2>This phone</h2>
      <Logout />
    </div>
  );
}
