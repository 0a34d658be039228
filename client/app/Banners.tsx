import { Button } from '../ui/Button';
import { online } from './connectivity';
import { updateReady } from './serviceWorker';
import { useStore } from './store';

/**
 * `offline`: what no signal means on this screen. The office's pages need the server to change
 * anything; the depot stations queue their scans on the tablet (issue 35), so saying "changes need
 * a connection" there would send a worker looking for Wi-Fi while the scans are safe.
 */
export function Banners({ offline = 'Lists show what was last loaded; changes need a connection.' }: { offline?: string }) {
  const isOnline = useStore(online);
  const update = useStore(updateReady);
  return (
    <>
      {!isOnline && (
        <div class="banner offline" role="status" data-testid="offline-banner">
          You are offline. {offline}
        </div>
      )}
      {update && (
        <div class="banner update" role="status">
          A new version of Courier is ready.
          <Button size="small" variant="primary" onClick={update}>
            Reload
          </Button>
          <Button size="small" variant="ghost" onClick={() => updateReady.set(null)}>
            Later
          </Button>
        </div>
      )}
    </>
  );
}
