import { z } from 'zod';
import { ChangePasswordBody } from '../../../shared/schemas/auth';
import { SuccessMessage } from '../../../shared/schemas/common';
import { PackageColumnsBody, Profile, ProfileUpdateBody, SettingsBody } from '../../../shared/schemas/org';
import { PACKAGE_COLUMN_KEYS } from '../../../shared/schemas/org';
import { ops } from '../../http/catalogue';
import type { App } from '../../http/env';
import { defineRoute } from '../../http/route';
import { clientIp } from '../../http/client';
import { changePassword } from '../../services/auth/accounts';
import { loadUser, profileOf, updatePackageColumns, updateProfile, updateSettings } from '../../services/org/profile';
import { attachUserFile, detachUserFile, fileResponse, readUserFile } from '../../services/org/userFiles';

const tags = ['Profile'];
const WEB = 'web/Profile Update';
const UploadBody = z.object({ file: z.instanceof(File, { message: 'a file is required' }) });

export function profileRoutes(app: App): void {
  defineRoute(
    app,
    {
      method: 'get',
      path: '/profile/',
      tags,
      access: 'authenticated',
      catalogue: [...ops(WEB, 'Get User'), ...ops('mobile/Profile', 'Get')],
      summary: 'The signed-in user: details, settings, package columns and effective permissions',
      response: Profile,
    },
    async ({ deps, user }) => profileOf(deps.db, await loadUser(deps.db, user.id)),
  );

  defineRoute(
    app,
    {
      method: ['patch', 'put'],
      path: '/profile/',
      tags,
      access: 'authenticated',
      catalogue: [...ops(WEB, 'User Update'), ...ops('mobile/Profile', 'Driver Update')],
      summary: 'Change your name or phone',
      description: 'Only `name` and `phone`; role, e-mail and company are changed by an admin.',
      body: ProfileUpdateBody,
      response: Profile,
    },
    async ({ deps, user, body }) => profileOf(deps.db, await updateProfile(deps, user.id, body)),
  );

  defineRoute(
    app,
    {
      method: ['patch', 'put'],
      path: '/profile/settings/',
      tags,
      access: 'authenticated',
      catalogue: ops(WEB, 'Setting Update'),
      summary: 'Change your app settings',
      body: SettingsBody,
      response: z.object({ settings: SettingsBody }),
      description:
        'A JSON object of short keys to small values (text, number, boolean, lists of those, flat objects). PATCH merges and a null value removes a key; PUT replaces all. 100 keys and 16 KiB at most.',
    },
    async ({ deps, user, body, c }) => ({ settings: await updateSettings(deps, user.id, body, c.req.method === 'PUT') }),
  );

  defineRoute(
    app,
    {
      method: ['patch', 'put'],
      path: '/profile/package-columns/',
      tags,
      access: 'authenticated',
      catalogue: ops(WEB, 'Package Column Update'),
      summary: 'Choose and order the columns of your package table',
      body: PackageColumnsBody,
      response: z.object({ package_columns: z.array(z.enum(PACKAGE_COLUMN_KEYS)) }),
      description: '`columns` are keys of the Package record (spec 2.1), each once, in display order; null restores the default set.',
    },
    async ({ deps, user, body }) => ({ package_columns: await updatePackageColumns(deps, user.id, body.columns) }),
  );

  defineRoute(
    app,
    {
      method: ['post', 'put'],
      path: '/profile/image/',
      tags,
      access: 'authenticated',
      catalogue: [],
      transactional: false,
      bodyKind: 'multipart',
      body: UploadBody,
      response: Profile,
      summary: 'Upload your profile image (JPEG, PNG or WebP, 10 MiB at most)',
      description: 'Replaces (and removes) the previous image.',
    },
    async ({ deps, user, body }) => {
      await attachUserFile(deps, user.id, 'profile_image', body.file);
      return profileOf(deps.db, await loadUser(deps.db, user.id));
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/profile/image/',
      tags,
      access: 'authenticated',
      catalogue: [],
      produces: 'application/octet-stream',
      summary: 'Your profile image',
    },
    async ({ deps, user }) => {
      const { file, bytes } = await readUserFile(deps, await loadUser(deps.db, user.id), 'profile_image');
      return fileResponse(file, bytes);
    },
  );

  defineRoute(
    app,
    {
      method: 'delete',
      path: '/profile/image/',
      tags,
      access: 'authenticated',
      transactional: false,
      catalogue: [...ops(WEB, 'Profile Image Delete'), ...ops('mobile/Profile', 'Image Delete')],
      summary: 'Delete your profile image',
      response: Profile,
    },
    async ({ deps, user }) => {
      await detachUserFile(deps, user.id, 'profile_image');
      return profileOf(deps.db, await loadUser(deps.db, user.id));
    },
  );

  defineRoute(
    app,
    {
      method: ['post', 'patch'],
      path: '/profile/change-password/',
      tags,
      access: 'authenticated',
      transactional: false,
      catalogue: ops(WEB, 'User Password Change'),
      body: ChangePasswordBody,
      response: SuccessMessage,
      summary: 'Change your password (your other sessions are signed out)',
    },
    async ({ deps, user, body, c }) => {
      // A stolen token must not become an oracle for guessing the current password: throttled like a login.
      const attempt = await deps.throttle.begin('pwchange', user.email, clientIp(c, deps.config), deps.clock.now());
      await changePassword(deps, user.id, body.old_password, body.new_password, user.tokenId);
      await attempt.succeeded();
      return { success: true, message: 'Password changed' };
    },
  );
}
