import { useEffect, useState } from 'preact/hooks';
import type { z } from 'zod';
import type { BusinessProfile } from '../../../shared/schemas/business';
import { api } from '../../api/client';
import './settings.css';

type Profile = z.infer<typeof BusinessProfile>;

/** What a tax invoice needs from the business profile and would print as "not set". */
export function missingFromProfile(p: Profile): string[] {
  const out: string[] = [];
  if (!p.legal_name.trim()) out.push('legal name');
  if (!p.abn) out.push('ABN');
  if (!(p.bank_bsb && p.bank_account_number) && !p.payment_instructions.trim()) out.push('payment details');
  return out;
}

/**
 * Shown to admins on an invoice while the seller's details are incomplete, with the way to fix them:
 * the PDF would otherwise say "(business legal name not set)" to the customer. Issued invoices are
 * re-rendered with the current profile, so fixing it fixes this invoice too. Silent on any error.
 */
export function ProfileNotice() {
  const [missing, setMissing] = useState<string[]>([]);
  useEffect(() => {
    let live = true;
    api.get<Profile>('settings/business-profile/').then(
      (p) => {
        if (live) setMissing(missingFromProfile(p));
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  if (!missing.length) return null;
  return (
    <p class="profile-notice" role="note" data-testid="profile-notice">
      The PDF prints without your {missing.join(', ')}. <a href="#/settings/business-profile">Set up the business profile</a>
    </p>
  );
}
