import {
  ChangePasswordBody,
  ForgetPasswordBody,
  LoginBody,
  LoginResponse,
  PasswordChangeWithEmailBody,
  ResetPasswordBody,
} from '../../shared/schemas/auth';
import { SuccessMessage } from '../../shared/schemas/common';
import { ops } from '../http/catalogue';
import { clientIp, requirePublicOrigin } from '../http/client';
import type { App } from '../http/env';
import { defineRoute } from '../http/route';
import { changePassword, findUserByEmail, login, requestReset, resetPassword, revokeToken } from '../services/auth/accounts';

const tags = ['Auth'];
const RESET_LIMIT = 5;
const HOUR = 3600_000;

export function authRoutes(app: App): void {
  defineRoute(
    app,
    {
      method: 'post',
      path: '/auth/login/',
      tags,
      access: 'public',
      transactional: false,
      catalogue: [...ops('web/Auth', 'Get Login Token'), ...ops('mobile/Login/Logout', 'Get Login Token')],
      summary: 'Log in (driver app and API clients)',
      body: LoginBody,
      response: LoginResponse,
      description:
        'Answers an opaque bearer token. Attempts are counted before the password is checked: at most 30 per address ' +
        'in 15 minutes, and after repeated failures an account answers 429 with `details.retry_after` (seconds) for a delay ' +
        'that grows with each failure. Send `X-Device-Id` so an administrator can sign out this device alone.',
    },
    ({ deps, body, c, device }) => login(deps, body.email, body.password, 'mobile', clientIp(c, deps.config), device?.id),
  );

  defineRoute(
    app,
    {
      method: 'post',
      path: '/auth/web-login/',
      tags,
      access: 'public',
      transactional: false,
      catalogue: ops('web/Auth', 'Get Web Login Token'),
      summary: 'Log in to the web app (staff and companies; drivers use the driver app)',
      body: LoginBody,
      response: LoginResponse,
    },
    ({ deps, body, c, device }) => login(deps, body.email, body.password, 'web', clientIp(c, deps.config), device?.id),
  );

  defineRoute(
    app,
    {
      method: 'post',
      path: '/auth/logout/',
      tags,
      access: 'authenticated',
      transactional: false,
      catalogue: [...ops('web/Auth', 'Logout'), ...ops('mobile/Login/Logout', 'Logout')],
      summary: 'Revoke the token of this request',
      response: SuccessMessage,
    },
    async ({ deps, user }) => {
      await revokeToken(deps, user.tokenId);
      return { success: true, message: 'Logged out' };
    },
  );

  defineRoute(
    app,
    {
      method: 'post',
      path: '/auth/forget-password/',
      tags,
      access: 'public',
      transactional: false,
      catalogue: [...ops('web/Auth', 'Forget Password'), ...ops('mobile/Login/Logout', 'Forget Password')],
      summary: 'Send a one-time password reset token by e-mail',
      body: ForgetPasswordBody,
      response: SuccessMessage,
      description:
        'Always answers the same message whether or not the e-mail has an account. Limited to 50 an hour per ' +
        'address, then 5 an hour per e-mail. The link in the mail is built from PUBLIC_URL only; a server without it answers 503.',
    },
    async ({ deps, body, c }) => {
      const baseUrl = requirePublicOrigin(deps.config, 'Password reset by e-mail');
      // The address first: a client over its limit adds no e-mail keys.
      await deps.limiter.hit(`reset-ip:${clientIp(c, deps.config)}`, RESET_LIMIT * 10, HOUR, deps.clock.now());
      await deps.limiter.hit(`reset:${body.email}`, RESET_LIMIT, HOUR, deps.clock.now());
      // After the answer: a known e-mail's reset row, mail and COMMIT (fsync) made it answer ~10-30 ms
      // later than an unknown one (bench/auth.ts), which told who has an account. A lost reset (a
      // storage error) only means the user asks again.
      setImmediate(() => {
        deps.writes.run(() => requestReset(deps, body.email, baseUrl)).catch(() => undefined);
      });
      return { success: true, message: 'If this e-mail has an account, a reset link is on its way' };
    },
  );

  defineRoute(
    app,
    {
      method: 'post',
      path: '/auth/reset-password/',
      tags,
      access: 'public',
      transactional: false,
      catalogue: [...ops('web/Auth', 'Reset Password'), ...ops('mobile/Login/Logout', 'Reset Password')],
      summary: 'Set a new password with a reset token (signs out every session)',
      body: ResetPasswordBody,
      response: SuccessMessage,
    },
    async ({ deps, body, c }) => {
      await deps.limiter.hit(`reset-use:${clientIp(c, deps.config)}`, 30, HOUR, deps.clock.now());
      await resetPassword(deps, body.token, body.password);
      return { success: true, message: 'Password changed; log in with the new password' };
    },
  );

  defineRoute(
    app,
    {
      method: 'post',
      path: '/auth/change-password/',
      tags,
      access: 'authenticated',
      transactional: false,
      catalogue: ops('web/Auth', 'Change Password'),
      summary: 'Change your password (other sessions are signed out)',
      body: ChangePasswordBody,
      response: SuccessMessage,
    },
    async ({ deps, user, body, c }) => {
      const attempt = await deps.throttle.begin('pwchange', user.email, clientIp(c, deps.config), deps.clock.now());
      await changePassword(deps, user.id, body.old_password, body.new_password, user.tokenId);
      await attempt.succeeded();
      return { success: true, message: 'Password changed' };
    },
  );

  defineRoute(
    app,
    {
      method: 'post',
      path: '/auth/password-change-with-email/',
      tags,
      access: 'public',
      transactional: false,
      catalogue: ops('web/Auth', 'Password Change With Email'),
      summary: 'Change a password by e-mail and current password, without a session',
      body: PasswordChangeWithEmailBody,
      response: SuccessMessage,
    },
    async ({ deps, body, c }) => {
      const attempt = await deps.throttle.begin('pwchange', body.email, clientIp(c, deps.config), deps.clock.now());
      // An unknown e-mail does the same hash work and gets the same answer as a wrong password.
      await changePassword(deps, (await findUserByEmail(deps, body.email))?.id ?? null, body.old_password, body.new_password);
      await attempt.succeeded();
      return { success: true, message: 'Password changed; log in with the new password' };
    },
  );
}
