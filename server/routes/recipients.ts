import { IdParams, SuccessMessage } from '../../shared/schemas/common';
import {
  DriverRatings,
  DriverRatingsQuery,
  MessageLog,
  MessageLogQuery,
  InstructionsBody,
  RatingBody,
  RecipientSettings,
  RecipientSettingsQuery,
  RecipientSettingsUpdate,
  RecipientView,
  RescheduleBody,
  TrackFileParams,
  TrackingLink,
  TrackTokenParams,
} from '../../shared/schemas/recipients';
import { notFound } from '../errors';
import { clientIp } from '../http/client';
import type { App } from '../http/env';
import { defineRoute } from '../http/route';
import { chooseAnotherDay, leaveInstructions, optOut, rateDelivery } from '../services/recipients/actions';
import { driverRatings, logoUploaders, settingsCompany, trackingLinkOf } from '../services/recipients/company';
import { messageLog } from '../services/recipients/messageLog';
import { readSettings, saveSettings } from '../services/recipients/settings';
import { findTracked, limitRecipient, recipientView, tracked, trackedFile } from '../services/recipients/view';

const tags = ['Recipients'];
const publicNote =
  "Public, no login: the unguessable token of one parcel's tracking link is the only key; limited per address (60 a minute, then 429).";

export function recipientRoutes(app: App): void {
  defineRoute(
    app,
    {
      method: 'get',
      path: '/public/track/{token}/',
      tags,
      access: 'public',
      catalogue: [],
      params: TrackTokenParams,
      response: RecipientView,
      summary: "A parcel's tracking page data, by its tracking link",
      description: publicNote,
    },
    async ({ deps, params, c }) => {
      c.header('Cache-Control', 'no-store');
      c.header('Referrer-Policy', 'no-referrer');
      return recipientView(deps, await tracked(deps, params.token, clientIp(c, deps.config)));
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/public/track/{token}/file/{file_id}/',
      tags,
      access: 'public',
      catalogue: [],
      params: TrackFileParams,
      produces: 'application/octet-stream',
      summary: 'A proof-of-delivery photo or signature, or the company logo, of this tracking page',
      description: publicNote,
    },
    async ({ deps, params, c }) => {
      const row = await trackedFile(deps, await tracked(deps, params.token, clientIp(c, deps.config)), params.file_id);
      const bytes = await deps.files.get(row.key);
      if (!bytes) throw notFound('No such file on this tracking page');
      c.header('Content-Type', row.mime);
      c.header('Cache-Control', 'private, no-store');
      c.header('X-Content-Type-Options', 'nosniff');
      return c.body(bytes as Uint8Array<ArrayBuffer>);
    },
  );

  defineRoute(
    app,
    {
      method: 'post',
      path: '/public/track/{token}/instructions/',
      tags,
      access: 'public',
      catalogue: [],
      params: TrackTokenParams,
      body: InstructionsBody,
      response: SuccessMessage,
      summary: "Leave delivery instructions or a safe place (reaches the driver's phone)",
      description: publicNote,
      // Counted before the unit of work (limitRecipient).
      prepare: ({ deps, c }) => limitRecipient(deps, clientIp(c, deps.config)),
    },
    async ({ deps, params, body }) => {
      await leaveInstructions(deps, await findTracked(deps, params.token), body.instructions);
      return { success: true, message: body.instructions ? 'Your instructions are on their way to the driver' : 'Instructions removed' };
    },
  );

  defineRoute(
    app,
    {
      method: 'post',
      path: '/public/track/{token}/reschedule/',
      tags,
      access: 'public',
      catalogue: [],
      params: TrackTokenParams,
      body: RescheduleBody,
      response: SuccessMessage,
      summary: 'After a failed attempt, choose another delivery day',
      description: publicNote,
      prepare: ({ deps, c }) => limitRecipient(deps, clientIp(c, deps.config)),
    },
    async ({ deps, params, body }) => {
      const date = await chooseAnotherDay(deps, await findTracked(deps, params.token), body.date);
      return { success: true, message: `We will deliver on ${date}` };
    },
  );

  defineRoute(
    app,
    {
      method: 'post',
      path: '/public/track/{token}/rating/',
      tags,
      access: 'public',
      catalogue: [],
      params: TrackTokenParams,
      body: RatingBody,
      response: SuccessMessage,
      status: 201,
      summary: 'Rate the delivery (1-5, optional comment)',
      description: publicNote,
      prepare: ({ deps, c }) => limitRecipient(deps, clientIp(c, deps.config)),
    },
    async ({ deps, params, body }) => {
      await rateDelivery(deps, await findTracked(deps, params.token), body.rating, body.comment ?? null);
      return { success: true, message: 'Thank you for your rating' };
    },
  );

  defineRoute(
    app,
    {
      method: 'post',
      path: '/public/track/{token}/opt-out/',
      tags,
      access: 'public',
      catalogue: [],
      params: TrackTokenParams,
      response: SuccessMessage,
      summary: "Stop messages to this parcel's recipient (at once, and for the company's later parcels)",
      description: publicNote,
      prepare: ({ deps, c }) => limitRecipient(deps, clientIp(c, deps.config)),
    },
    async ({ deps, params }) => {
      await optOut(deps, await findTracked(deps, params.token));
      return { success: true, message: 'You will get no more messages' };
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/package/{id}/tracking-link/',
      tags,
      access: 'package.view',
      catalogue: [],
      params: IdParams,
      response: TrackingLink,
      summary: "The parcel's unguessable tracking link, to share with the recipient",
      description:
        'Built only from the configured PUBLIC_URL; without it `url` is null and `warning` says so. The first ask creates the token.',
    },
    ({ deps, user, params }) => trackingLinkOf(deps, user, params.id),
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/recipient-messages/',
      tags,
      access: 'authenticated',
      catalogue: [],
      query: MessageLogQuery,
      response: MessageLog,
      summary: "Recipient notices sent, waiting and failed, newest first (?package= one parcel's, ?company= staff only, ?status=failed)",
      description: "Staff see every company's, a company only its own; account mail is never listed and no message body is returned.",
    },
    ({ deps, user, query }) => messageLog(deps, user, query),
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/recipient-settings/',
      tags,
      access: 'authenticated',
      catalogue: [],
      query: RecipientSettingsQuery,
      response: RecipientSettings,
      summary: 'What recipients hear from a company: events, channels, sender name, templates, logo',
    },
    ({ deps, user, query }) => readSettings(deps.db, settingsCompany(user, query.company)),
  );

  defineRoute(
    app,
    {
      method: 'patch',
      path: '/recipient-settings/',
      tags,
      access: 'authenticated',
      catalogue: [],
      query: RecipientSettingsQuery,
      body: RecipientSettingsUpdate,
      response: RecipientSettings,
      summary: 'Change what recipients hear (templates may use {company} {hawb} {eta} {stops} {reason} {next_step} {link})',
    },
    async ({ deps, user, query, body }) => {
      const companyId = settingsCompany(user, query.company);
      return saveSettings(deps.db, deps.clock.now(), companyId, await logoUploaders(deps, user, companyId), body);
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/report/driver-ratings/',
      tags,
      access: 'authenticated',
      catalogue: [],
      query: DriverRatingsQuery,
      response: DriverRatings,
      summary: "Recipients' delivery ratings per driver (average, count, latest comments)",
    },
    ({ deps, user, query }) => driverRatings(deps, user, query.company),
  );
}
