import type { Permission } from '../../../shared/permissions';
import { can } from '../../app/access';
import { Lazy } from '../../app/Lazy';
import type { Session } from '../../app/session';
import { Empty } from '../../ui/States';

type Screen = {
  permission: Permission;
  staffOnly?: boolean;
  load: () => Promise<{ default: (p: { session: Session }) => preact.JSX.Element }>;
};

/** `#/org/<screen>`: organisation screens, each its own chunk. */
const SCREENS: Record<string, Screen> = {
  '/org/groups': { permission: 'permission.view', load: () => import('./PermissionGroups') },
  '/org/sessions': { permission: 'employee.manage', load: () => import('./Sessions') },
  '/org/support': { permission: 'support.view', staffOnly: true, load: () => import('./SupportTickets') },
  '/org/registrations': { permission: 'company.manage', staffOnly: true, load: () => import('./CompanyApprovals') },
  '/org/depots': { permission: 'company.view', load: () => import('./DepotAddresses') },
  '/org/pickup-qr': { permission: 'pickup_point.view', load: () => import('./PickupQr') },
  // The server lets every staff role read it (GET /api/audit-log/); company logins never.
  '/org/audit': { permission: 'package.view', staffOnly: true, load: () => import('./AuditLog') },
};

export default function OrgArea({ path, session }: { path: string; session: Session }) {
  const screen = SCREENS[path];
  if (!screen)
    return (
      <div class="card">
        <Empty title="Page not found">
          <a href="#/">Go to the dashboard</a>
        </Empty>
      </div>
    );
  const role = session.user.role;
  if (!can(role, screen.permission) || (screen.staffOnly && role === 'company')) {
    return (
      <div class="card">
        <Empty title="Not available for your role">Ask an administrator if you need this screen.</Empty>
      </div>
    );
  }
  return <Lazy key={path} load={screen.load} props={{ session }} />;
}
