import { z } from 'zod';
import { ROLES } from '../roles';
import { email } from './common';

export const PASSWORD_MIN = 8;
export const password = () => z.string().min(PASSWORD_MIN, `at least ${PASSWORD_MIN} characters`).max(128);

export const LoginBody = z.object({ email: email(), password: z.string().min(1).max(128) });
export const AuthUser = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  company: z.number().int().nullable(),
});
export type AuthUser = z.infer<typeof AuthUser>;
export const LoginResponse = z.object({
  success: z.boolean(),
  message: z.string(),
  token: z.string(),
  expires_at: z.string(),
  user: AuthUser,
});
export const ForgetPasswordBody = z.object({ email: email() });
export const ResetPasswordBody = z.object({ token: z.string().min(16).max(256), password: password() });
export const ChangePasswordBody = z.object({ old_password: z.string().min(1).max(128), new_password: password() });
export const PasswordChangeWithEmailBody = z.object({
  email: email(),
  old_password: z.string().min(1).max(128),
  new_password: password(),
});

/** One signed-in device or browser of an account (never the token itself). */
export const Session = z.object({
  id: z.number().int(),
  kind: z.enum(['web', 'mobile']),
  device_id: z.string().nullable(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  expires_at: z.string(),
  current: z.boolean(),
});
export const SessionList = z.object({ count: z.number().int(), results: z.array(Session) });
export const RevokeSessionAnswer = z.object({ success: z.boolean(), message: z.string(), revoked: z.number().int() });
