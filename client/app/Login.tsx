import { useState } from 'preact/hooks';
import type { AuthUser } from '../../shared/schemas/auth';
import { ApiError, api, errorMessage, fieldErrors } from '../api/client';
import { Button } from '../ui/Button';
import { TextField } from '../ui/Field';
import { signIn, signOutReason } from './session';
import { useStore } from './store';
import { Logo } from '../ui/Logo';

interface LoginAnswer {
  token: string;
  expires_at: string;
  user: AuthUser;
}

export default function Login() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState('');
  const [isDriver, setIsDriver] = useState(false);
  const [busy, setBusy] = useState(false);
  const reason = useStore(signOutReason);

  const submit = async (e: Event) => {
    e.preventDefault();
    setMessage('');
    setIsDriver(false);
    // Checked by hand rather than with the zod LoginBody: zod would triple the start-up bundle.
    const body = { email: email.trim().toLowerCase(), password };
    const errs: Record<string, string> = {};
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(body.email)) errs.email = 'Enter a valid e-mail address';
    if (!body.password) errs.password = 'Enter your password';
    if (Object.keys(errs).length) {
      setErrors(errs);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const res = await api.post<LoginAnswer>('auth/web-login/', body);
      // Where to go is decided by the router (app/App.tsx) from the address as it is when the answer
      // arrives, not as it was at submit: a link followed meanwhile (`#/packages/12` while logged out
      // becomes `#/login?next=/packages/12`) must be where the login lands.
      signIn({ token: res.token, user: res.user, expiresAt: res.expires_at });
    } catch (err) {
      setErrors(fieldErrors(err));
      // The server refuses drivers here on purpose; point them to their app instead of a bare "forbidden".
      if (err instanceof ApiError && err.status === 403 && /driver/i.test(err.message)) setIsDriver(true);
      setMessage(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="login-page">
      <form class="card login-card stack" onSubmit={submit} noValidate aria-labelledby="login-title">
        <div class="logo">
          <Logo />
          <span id="login-title">Courier</span>
        </div>
        {reason === 'expired' && (
          <div class="note" role="status">
            Your session ended. Please log in again.
          </div>
        )}
        <TextField
          label="E-mail"
          type="email"
          name="email"
          autoComplete="username"
          value={email}
          onValue={setEmail}
          error={errors.email}
          required
        />
        <TextField
          label="Password"
          type="password"
          name="password"
          autoComplete="current-password"
          value={password}
          onValue={setPassword}
          error={errors.password}
          required
        />
        {message && (
          <div class="form-error" role="alert">
            {message}
          </div>
        )}
        {isDriver && <div class="note">Drivers use the driver app on their phone.</div>}
        <Button type="submit" variant="primary" busy={busy}>
          Log in
        </Button>
        <p class="muted" style={{ fontSize: '0.9rem', margin: 0 }}>
          Driver? <a href="#/driver">Open the driver app</a>. Forgot your password? <a href="#/forgot-password">Reset it</a>.
        </p>
      </form>
    </div>
  );
}
