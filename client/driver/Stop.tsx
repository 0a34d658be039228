import { useStore } from '../app/store';
import { LinkButton } from '../ui/Button';
import { Empty, Loading } from '../ui/States';
import { mustReturn } from './day';
import { maxAttempts } from './routeCache';
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
      {canDeliver(p, back) && <LinkButton href={`#/driver/deliver/${p.id}`} variant="primary" size="big" class="xl">Deliver</LinkButton>}
      {canFail(p) && <LinkButton href={`#/driver/fail/${p.id}`} size="big" class="xl">Could not deliver</LinkButton>}
      {p.status === 'assigned' && <LinkButton href="#/driver/scan" size="big" class="xl">Scan onto the van</LinkButton>}
      <LinkButton href="#/driver" class="xl">Back to today</LinkButton>
    </div>
  );
}
