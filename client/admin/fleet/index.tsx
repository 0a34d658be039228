import DepotPositions from './DepotPositions';
import PlanSettings from './PlanSettings';
import ShiftWeek from './ShiftWeek';

/** Fleet setup screens (issues 32, 36): `/fleet/shifts`, `/fleet/depots`, `/fleet/plan-settings`; vehicles are a resource screen. */
export default function Fleet({ path }: { path: string }) {
  if (path === '/fleet/depots') return <DepotPositions />;
  if (path === '/fleet/plan-settings') return <PlanSettings />;
  return <ShiftWeek />;
}
