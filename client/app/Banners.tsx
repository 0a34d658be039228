import { Button } from '../ui/Button';
import { online } from './connectivity';
import { updateReady } from './serviceWorker';
import { useStore } from './store';

export function Banners() {
  const isOnline = useStore(online);
  const update = useStore(updateReady);
  return (
    <>
      {!isOnline && (
        <div class="banner offline" role="status" data-testid="offline-banner">
          You are offline. Lists show what was last loaded; changes need a connection.
        </div>
      )}
      {update && (
        <div class="banner update" role="status">
          A new version of Courier is ready.
          <Button size="small" variant="primary" onClick={update}>Reload</Button>
          <Button size="small" variant="ghost" onClick={() => updateReady.set(null)}>Later</Button>
        </div>
      )}
    </>
  );
}
