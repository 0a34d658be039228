import {
  ChangePasswordBody, ForgetPasswordBody, LoginBody, LoginResponse, PasswordChangeWithEmailBody, ResetPasswordBody,
} from '../../shared/schemas/auth';
import { SuccessMessage } from '../../shared/schemas/common';
import { ApiError } from '../errors';
import { ops } from '../http/catalogue';
import { clientAddress, originOf } from '../http/client';
import type { App } from '../http/env';
import { defineRoute } from '../http/route';
import { changePassword, findUserByEmail, login, requestReset, resetPassword, revokeToken } from '../services/auth/accounts';

const tags = ['Auth'];
const RESET_LIMIT = 5;
const HOUR = 3600_000;

export function authRoutes(app: App): void {
  defineRoute(app, {
    method: 'post', path: '/auth/login/', tags, access: 'public', transactional: false,
    catalogue: [...ops('web/Auth', 'Get Login Token'), ...ops('mobile/Login/Logout', 'Get Login Token')],
    summary: 'Log in (driver app and API clients)', body: LoginBody, response: LoginResponse,
    description: 'Answers an opaque bearer token. Repeated failures for an e-mail or address are answered 429 for 15 minutes.',
  }, ({ deps, body, c }) => login(deps, body.email, body.password, 'mobile', clientAddress(c)));

  defineRoute(app, {
    method: 'post', path: '/auth/web-login/', tags, access: 'public', transactional: false,
    catalogue: ops('web/Auth', 'Get Web Login Token'),
    summary: 'Log in to the web app (staff and companies; drivers use the driver app)', body: LoginBody, response: LoginResponse,
  }, ({ deps, body, c }) => login(deps, body.email, body.password, 'web', clientAddress(c)));

  defineRoute(app, {
    method: 'post', path: '/auth/logout/', tags, access: 'authenticated', transactional: false,
    catalogue: [...ops('web/Auth', 'Logout'), ...ops('mobile/Login/Logout', 'Logout')],
    summary: 'Revoke the token of this request', response: SuccessMessage,
  }, ({ deps, user }) => {
    revokeToken(deps, user.tokenId);
    return { success: true, message: 'Logged out' };
  });

  defineRoute(app, {
    method: 'post', path: '/auth/forget-password/', tags, access: 'public', transactional: false,
    catalogue: [...ops('web/Auth', 'Forget Password'), ...ops('mobile/Login/Logout', 'Forget Password')],
    summary: 'Send a one-time password reset token by e-mail', body: ForgetPasswordBody, response: SuccessMessage,
    description: 'Always answers the same message whether or not the e-mail has an account. Limited to 5 an hour per e-mail.',
  }, ({ deps, body, c }) => {
    deps.limiter.hit(`reset:${body.email}`, RESET_LIMIT, HOUR, deps.clock.now());
    deps.limiter.hit(`reset-ip:${clientAddress(c)}`, RESET_LIMIT * 10, HOUR, deps.clock.now());
    requestReset(deps, body.email, originOf(c));
    return { success: true, message: 'If this e-mail has an account, a reset link is on its way' };
  });

  defineRoute(app, {
    method: 'post', path: '/auth/reset-password/', tags, access: 'public', transactional: false,
    catalogue: [...ops('web/Auth', 'Reset Password'), ...ops('mobile/Login/Logout', 'Reset Password')],
    summary: 'Set a new password with a reset token (signs out every session)', body: ResetPasswordBody, response: SuccessMessage,
  }, async ({ deps, body, c }) => {
    deps.limiter.hit(`reset-use:${clientAddress(c)}`, 30, HOUR, deps.clock.now());
    await resetPassword(deps, body.token, body.password);
    return { success: true, message: 'Password changed; log in with the new password' };
  });

  defineRoute(app, {
    method: 'post', path: '/auth/change-password/', tags, access: 'authenticated', transactional: false,
    catalogue: ops('web/Auth', 'Change Password'),
    summary: 'Change your password (other sessions are signed out)', body: ChangePasswordBody, response: SuccessMessage,
  }, async ({ deps, user, body }) => {
    await changePassword(deps, user.id, body.old_password, body.new_password, user.tokenId);
    return { success: true, message: 'Password changed' };
  });

  defineRoute(app, {
    method: 'post', path: '/auth/password-change-with-email/', tags, access: 'public', transactional: false,
    catalogue: ops('web/Auth', 'Password Change With Email'),
    summary: 'Change a password by e-mail and current password, without a session', body: PasswordChangeWithEmailBody,
    response: SuccessMessage,
  }, async ({ deps, body, c }) => {
    deps.limiter.hit(`pwchange:${body.email}`, 10, HOUR, deps.clock.now());
    deps.limiter.hit(`pwchange-ip:${clientAddress(c)}`, 50, HOUR, deps.clock.now());
    const row = findUserByEmail(deps, body.email);
    if (!row) throw new ApiError(400, 'validation_error', 'The current password is wrong', [{ path: 'old_password', message: 'wrong password' }]);
    await changePassword(deps, row.id, body.old_password, body.new_password);
    return { success: true, message: 'Password changed; log in with the new password' };
  });
}

