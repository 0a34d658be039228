import { useStore } from '../app/store';
import { Empty, Loading } from '../ui/States';
import { useOutbox } from './hooks';
import { storyOfRow } from './refusal';
import { maxAttempts } from './routeCache';
import { BigLink } from './BigLink';
import { StopCard } from './StopCard';
import { canDeliver, canFail, usePackage } from './usePackage';

export default function Stop({ id }: { id: number }) {
  const { p, loaded } = usePackage(id);
  const max = useStore(maxAttempts);
  const [outbox] = useOutbox();
  if (!loaded) return <Loading />;
  if (!p) {
    // Gone from the phone (cancelled, reassigned): a refusal of the driver's own action says why.
    const refused = outbox.find((r) => r.status === 'rejected' && r.effect?.packageId === id);
    if (refused) {
      const story = storyOfRow(refused);
      return (
        <div class="drv-screen" data-testid="stop-gone">
          <h1>{refused.label}</h1>
          <div class="rejected-note" role="alert" data-testid="stop-refused">
            <div>{story.what}</div>
            <div>{story.todo}</div>
          </div>
          <BigLink href="#/driver/sync">See it in Sync</BigLink>
          <BigLink href="#/driver">Back to today</BigLink>
        </div>
      );
    }
    return (
      <Empty title="This parcel is not on your phone">
        The office took it off your list (given to another driver or cancelled). Open Sync with signal for the latest; keep the parcel and
        call the office if you have it.
      </Empty>
    );
  }
  return (
    <div class="drv-screen">
      <StopCard p={p} max={max} />
      {canDeliver(p, max) && (
        <BigLink href={`#/driver/deliver/${p.id}`} primary>
          Deliver
        </BigLink>
      )}
      {canFail(p, max) && <BigLink href={`#/driver/fail/${p.id}`}>Could not deliver</BigLink>}
      {p.status === 'assigned' && <BigLink href="#/driver/scan">Scan onto the van</BigLink>}
      <BigLink href="#/driver">Back to today</BigLink>
    </div>
  );
}
