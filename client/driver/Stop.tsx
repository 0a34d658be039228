import { useStore } from '../app/store';
import { Empty, Loading } from '../ui/States';
import { mustReturn } from './day';
import { maxAttempts } from './routeCache';
import { BigLink } from './BigLink';
import { StopCard } from './StopCard';
import { canDeliver, canFail, usePackage } from './usePackage';

export default function Stop({ id }: { id: number }) {
  const { p, loaded } = usePackage(id);
  const max = useStore(maxAttempts);
  if (!loaded) return <Loading />;
  if (!p) return <Empty title="This parcel is not on your phone">It may have been given to another driver.</Empty>;
  const back = mustReturn(p, max);
  return (
    <div class="drv-screen">
      <StopCard p={p} max={max} />
      {canDeliver(p, back) && <BigLink href={`#/driver/deliver/${p.id}`} primary>Deliver</BigLink>}
      {canFail(p) && <BigLink href={`#/driver/fail/${p.id}`}>Could not deliver</BigLink>}
      {p.status === 'assigned' && <BigLink href="#/driver/scan">Scan onto the van</BigLink>}
      <BigLink href="#/driver">Back to today</BigLink>
    </div>
  );
}
