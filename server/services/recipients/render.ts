import type { Db } from '../../db/client';
import { mustReturn } from '../../../shared/lifecycle';
import { RECIPIENT_EVENTS, type RecipientEvent } from '../../../shared/schemas/recipients';
import type { OutboxRow, Rendered } from '../messages/dispatcher';
import { isOptedOut, type Channel } from '../messages/outbox';
import { findPackage } from '../packages/lifecycle';
import { optOutUrl, trackingUrl } from './links';
import { recipientOf } from './recipient';
import { effectiveSettings, SUBJECTS } from './settings';
import { depotZone } from '../time/zones';
import { localClock } from '../../../shared/time/zone';
import { doorRow } from '../door/rules';

export interface RenderOptions {
  publicUrl?: string;
  maxAttempts: number;
  /**
   * How an ETA reads ("14:10"): the configured business zone (TIME_ZONE) for a parcel whose depot and
   * business profile name none. Never the server process's own zone (issue 31).
   */
  timeZone: string;
}

const NO_LINK = '\u0000';
const isEvent = (k: string): k is RecipientEvent => (RECIPIENT_EVENTS as readonly string[]).includes(k);

/** `{name}` placeholders from `values`; unknown ones stay as written, so a typo shows instead of vanishing. */
export function fillTemplate(template: string, values: Record<string, string>): string {
  return template
    .replace(/\{([a-z_]+)\}/g, (whole, key: string) => (key in values ? values[key]! : whole))
    .replace(/[ \t]+([.,])/g, '$1')
    .trim();
}

export function nextStepText(attempts: number, maxAttempts: number): string {
  return mustReturn(attempts, maxAttempts)
    ? 'It goes back to our depot and then to the sender.'
    : 'We will try again on the next delivery day.';
}

/** The recipient's wall clock: the zone of the parcel's depot. */
const clock = (ms: number, zone: string): string => localClock(ms, zone);

/**
 * The dispatcher's renderer: a recipient notice becomes text when it is sent, from the company's
 * template of that moment. A notice to someone who opted out since it was queued is skipped.
 */
export function recipientRenderer(db: Db, opts: RenderOptions) {
  return async (row: OutboxRow): Promise<Rendered> => {
    if (!isEvent(row.kind)) return { skip: `unknown message kind ${row.kind}` };
    if (row.package_id == null || row.company_id == null) return { skip: 'no parcel' };
    const parcel = await findPackage(db, row.package_id);
    const recipient = await recipientOf(db, row.package_id);
    const settings = await effectiveSettings(db, row.company_id);
    if (!parcel || !recipient || !settings) return { skip: 'parcel gone' };
    if (recipient.opted_out_at != null || (await isOptedOut(db, row.company_id, row.channel as Channel, row.to)))
      return { skip: 'recipient opted out' };
    const data = (row.data ? JSON.parse(row.data) : {}) as {
      eta_from?: number;
      eta_to?: number;
      reason?: string | null;
      stops_away?: number;
    };
    const link = trackingUrl(opts.publicUrl, recipient.token);
    const stops = data.stops_away ?? 1;
    const zone = data.eta_from != null ? await depotZone({ db, config: { timeZone: opts.timeZone } }, parcel.warehouse_id) : opts.timeZone;
    const values: Record<string, string> = {
      company: settings.senderName,
      hawb: parcel.hawb,
      eta: data.eta_from != null && data.eta_to != null ? `, arriving ${clock(data.eta_from, zone)}–${clock(data.eta_to, zone)}` : '',
      stops: stops <= 1 ? 'the next stop' : `${stops} stops`,
      reason: data.reason ?? 'no one could take it',
      next_step: nextStepText(parcel.attempts, opts.maxAttempts),
      link: link ?? '',
    };
    let body = fillTemplate(settings.templates[row.kind], link ? values : { ...values, link: NO_LINK });
    // Without PUBLIC_URL there is no link: the sentence that offered it goes, rather than end on "Track it: ".
    if (!link)
      body = body
        .replace(/[^.!?]*\u0000[^.!?]*[.!?]?/g, '')
        .replace(/\s+/g, ' ')
        .trim();
    // The one-time code goes with "out for delivery" whatever the company's template says (issue 34).
    if (row.kind === 'out_for_delivery') {
      const code = (await doorRow(db, parcel.id))?.code;
      if (code)
        body +=
          row.channel === 'sms'
            ? ` Delivery code: ${code} (give it to the driver only).`
            : `\n\nYour delivery code: ${code}\nGive it to the driver only, when they hand you the parcel.`;
    }
    const stop = optOutUrl(opts.publicUrl, recipient.token);
    if (stop) body += row.channel === 'sms' ? ` Stop: ${stop}` : `\n\nTo stop these messages: ${stop}`;
    const subject = row.channel === 'email' ? fillTemplate(SUBJECTS[row.kind], values) : null;
    return { subject, body, senderName: settings.senderName };
  };
}
