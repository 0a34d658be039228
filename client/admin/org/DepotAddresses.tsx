import { useMemo } from 'preact/hooks';
import { DepotAddressCreate, DepotAddressUpdate } from '../../../shared/schemas/org';
import type { Session } from '../../app/session';
import { ActiveBadge, Badge } from '../../ui/Badge';
import { REFS } from '../resource/declarations';
import { useRefOptions } from '../resource/refOptions';
import { ResourceScreen } from '../resource/ResourceScreen';
import type { ResourceDecl } from '../resource/types';
import { ORG_PATHS } from '../routes/paths';

const str = (v: unknown) => (v == null ? '' : String(v));

/**
 * Companies' depot addresses through the generic resource screen. It lives here rather than in
 * declarations.tsx because its API path has a slash (`company/depot-address`), which `#/r/<name>` cannot carry.
 */
export default function DepotAddresses({ session }: { session: Session }) {
  const companies = useRefOptions(REFS.company);
  const names = useMemo(() => new Map(companies.options.map((o) => [o.value, o.label])), [companies.options]);
  const decl = useMemo(
    (): ResourceDecl => ({
      name: ORG_PATHS.depots,
      title: 'Company depot addresses',
      singular: 'Depot address',
      view: 'company.view',
      manage: 'company.view',
      create: DepotAddressCreate,
      update: DepotAddressUpdate,
      ordering: 'name',
      labels: { additional_details: 'Additional details', contact_phone: 'Contact phone', is_default: 'Default depot of the company' },
      hints: { company: 'A company login always writes its own', latitude: 'For pickup routes and the map', name: 'e.g. Main warehouse' },
      columns: [
        { key: 'company', label: 'Company', render: (r) => names.get(str(r.company)) ?? `#${str(r.company)}` },
        { key: 'name', label: 'Name', sort: 'name' },
        { key: 'street_address', label: 'Street address' },
        { key: 'suburb', label: 'Suburb', sort: 'suburb' },
        { key: 'postcode', label: 'Postcode', sort: 'postcode' },
        { key: 'contact_phone', label: 'Phone', optional: true },
        { key: 'is_default', label: 'Default', render: (r) => (r.is_default ? <Badge tone="info">Default</Badge> : '') },
        { key: 'is_active', label: 'Status', render: (r) => <ActiveBadge active={r.is_active === true} /> },
      ],
      filters: [
        { name: 'company', label: 'Company', options: REFS.company! },
        {
          name: 'is_active',
          label: 'Status',
          options: [
            { value: 'true', label: 'Active' },
            { value: 'false', label: 'Inactive' },
          ],
        },
      ],
    }),
    [names],
  );
  return <ResourceScreen decl={decl} session={session} archived={false} />;
}
