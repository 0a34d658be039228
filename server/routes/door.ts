import { SuccessMessage } from '../../shared/schemas/common';
import { CompanyProofRules, LeaveChoiceBody, ProofRequirementsSchema } from '../../shared/schemas/door';
import { RecipientSettingsQuery, TrackTokenParams } from '../../shared/schemas/recipients';
import { clientIp } from '../http/client';
import type { App } from '../http/env';
import { defineRoute } from '../http/route';
import { audit } from '../services/audit/record';
import { chooseAtDoor } from '../services/door/choice';
import { companyRequirements, saveCompanyRequirements } from '../services/door/rules';
import { settingsCompany } from '../services/recipients/company';
import { findTracked, limitRecipient } from '../services/recipients/view';
import { choiceWords } from '../../shared/door';

const tags = ['Proof at the door'];

/** Issue 34: a company's default proof, and the recipient's choice from their tracking page. */
export function doorRoutes(app: App): void {
  defineRoute(
    app,
    {
      method: 'get',
      path: '/company-proof-rules/',
      tags,
      access: 'authenticated',
      catalogue: [],
      query: RecipientSettingsQuery,
      response: CompanyProofRules,
      summary: "The proof a company's deliveries need by default (a parcel may raise it: `proof_requirements` on create/update)",
    },
    async ({ deps, user, query }) => {
      const company = settingsCompany(user, query.company);
      return { company, requirements: await companyRequirements(deps.db, company) };
    },
  );

  defineRoute(
    app,
    {
      method: ['put', 'patch'],
      path: '/company-proof-rules/',
      tags,
      access: 'authenticated',
      catalogue: [],
      query: RecipientSettingsQuery,
      body: ProofRequirementsSchema,
      response: CompanyProofRules,
      summary: "Set the proof a company's deliveries need: signature, photos, name, scan at the door, minimum age, one-time code",
      description: "Parcels already on a driver's phone get the new rule at its next sync. A company sets its own; staff name the company.",
    },
    async ({ deps, user, query, body }) => {
      const company = settingsCompany(user, query.company);
      const before = await companyRequirements(deps.db, company);
      const requirements = await saveCompanyRequirements(deps.db, deps.clock.now(), company, body);
      await audit(deps.db, deps.clock.now(), user.id, 'company.proof_rules', `company:${company}`, { before, after: requirements });
      return { company, requirements };
    },
  );

  defineRoute(
    app,
    {
      method: 'post',
      path: '/public/track/{token}/choice/',
      tags,
      access: 'public',
      catalogue: [],
      params: TrackTokenParams,
      body: LeaveChoiceBody,
      response: SuccessMessage,
      summary:
        'The recipient allows leaving the parcel (a safe place, a named neighbour) or will collect it from the depot; `none` withdraws',
      description:
        "Public, by the tracking link's token (limited per address). Reaches the driver's phone at its next sync; made once the parcel is out for delivery it is kept and shown as late.",
      prepare: ({ deps, c }) => limitRecipient(deps, clientIp(c, deps.config)),
    },
    async ({ deps, params, body }) => {
      const choice = await chooseAtDoor(deps, await findTracked(deps, params.token), body);
      if (!choice) return { success: true, message: 'Your choice was withdrawn' };
      return {
        success: true,
        message: choice.late
          ? `${choiceWords(choice)}. Your parcel is already on its way: the driver sees this when their phone next connects.`
          : `${choiceWords(choice)}: the driver will see it`,
      };
    },
  );
}
