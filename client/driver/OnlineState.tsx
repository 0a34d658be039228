import type { ComponentChildren } from 'preact';
import { Button } from '../ui/Button';
import { Loading } from '../ui/States';
import type { OnlineError } from './online';

/** Loading, "needs signal" or the content: screens that read the server say plainly when they cannot. */
export function OnlineState<T>({
  data,
  error,
  reload,
  children,
}: {
  data: T | null;
  error: OnlineError | null;
  reload: () => void;
  children: (d: T) => ComponentChildren;
}) {
  if (error) {
    return (
      <div class={`state ${error.offline ? '' : 'error'}`} role="alert">
        <div class="title">{error.offline ? 'Needs signal' : 'Could not load'}</div>
        <div>{error.message}</div>
        <Button class="xl" onClick={reload}>
          Try again
        </Button>
      </div>
    );
  }
  if (data === null) return <Loading />;
  return <>{children(data)}</>;
}
