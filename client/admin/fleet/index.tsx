import DepotPositions from './DepotPositions';
import ShiftWeek from './ShiftWeek';

/** Fleet setup screens (issue 36): `/fleet/shifts`, `/fleet/depots`; vehicles are a resource screen. */
export default function Fleet({ path }: { path: string }) {
  if (path === '/fleet/depots') return <DepotPositions />;
  return <ShiftWeek />;
}
