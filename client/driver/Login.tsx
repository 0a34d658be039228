import { useState } from 'preact/hooks';
import type { SessionInfo } from '../sync/index';
import { Button } from '../ui/Button';
import { TextField } from '../ui/Field';
import { Logo } from '../ui/Logo';

/** Logs in once, with signal; the session then lives on the phone for the days it works offline. */
export function LoginForm({ onDone, submitLabel = 'Log in' }: { onDone: (u: SessionInfo) => void; submitLabel?: string }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    if (!email.trim() || !password) {
      setError('Enter your e-mail and password');
      return;
    }
    setBusy(true);
    setError('');
    try {
      // The sync engine is not part of the first screen: it loads while the driver types.
      const { engine, wipeDevice } = await import('./engine').catch(() => {
        throw new Error('No answer: the app could not be loaded');
      });
      const user = await engine().login(email.trim().toLowerCase(), password);
      if (user.role !== 'driver') {
        await wipeDevice();
        setError('This is the driver app. Staff and companies use the web login.');
        return;
      }
      onDone(user);
    } catch (err) {
      const msg = err instanceof Error ? err.message : String(err);
      setError(/No answer/.test(msg) ? 'No signal: logging in needs a connection once. Your work after that is saved offline.' : msg);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="stack" onSubmit={(e) => void submit(e)} noValidate>
      <TextField label="E-mail" type="email" autoComplete="username" inputMode="email" value={email} onValue={setEmail} />
      <TextField label="Password" type="password" autoComplete="current-password" value={password} onValue={setPassword} />
      {error && (
        <div class="form-error" role="alert">
          {error}
        </div>
      )}
      <Button type="submit" variant="primary" class="xl" busy={busy}>
        {submitLabel}
      </Button>
    </form>
  );
}

export function DriverLogin({ onDone }: { onDone: (u: SessionInfo) => void }) {
  return (
    <div class="login-page drv" data-testid="driver-login">
      <div class="card login-card stack">
        <div class="logo">
          <Logo />
          Courier Driver
        </div>
        <LoginForm onDone={onDone} />
        <p class="muted">
          Staff and companies: <a href="#/login">web login</a>.
        </p>
      </div>
    </div>
  );
}
