import { useState } from 'preact/hooks';
import { ForgetPasswordBody, ResetPasswordBody } from '../../shared/schemas/auth';
import { api, errorMessage, fieldErrors } from '../api/client';
import { Button } from '../ui/Button';
import { TextField } from '../ui/Field';
import { zodErrors } from './zodErrors';
import { Logo } from '../ui/Logo';

/** "Forgot password" asks for a mail; the link in it (`#/reset-password?token=`) sets a new password. */
export default function PasswordReset({ token }: { token: string | null }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [done, setDone] = useState('');
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (e: Event) => {
    e.preventDefault();
    setFailure('');
    const parsed = token ? ResetPasswordBody.safeParse({ token, password }) : ForgetPasswordBody.safeParse({ email });
    if (!parsed.success) {
      setErrors(zodErrors(parsed.error));
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const res = await api.post<{ message: string }>(token ? 'auth/reset-password/' : 'auth/forget-password/', parsed.data);
      setDone(res.message);
    } catch (err) {
      setErrors(fieldErrors(err));
      setFailure(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="login-page">
      <form class="card login-card stack" onSubmit={submit} noValidate>
        <div class="logo">
          <Logo />
          {token ? 'New password' : 'Reset password'}
        </div>
        {done ? (
          <div class="note" role="status">
            {done}
          </div>
        ) : token ? (
          <TextField
            label="New password"
            type="password"
            autoComplete="new-password"
            value={password}
            onValue={setPassword}
            error={errors.password}
            hint="At least 8 characters"
            required
          />
        ) : (
          <TextField label="E-mail" type="email" autoComplete="username" value={email} onValue={setEmail} error={errors.email} required />
        )}
        {failure && (
          <div class="form-error" role="alert">
            {failure}
          </div>
        )}
        {!done && (
          <Button type="submit" variant="primary" busy={busy}>
            {token ? 'Set password' : 'Send reset link'}
          </Button>
        )}
        <a href="#/login">Back to log in</a>
      </form>
    </div>
  );
}
