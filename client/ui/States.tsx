import type { ComponentChildren } from 'preact';
import { ApiError } from '../api/client';
import { Button } from './Button';

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <div class="state" role="status" aria-live="polite">
      <span class="loader" aria-hidden="true" />
      <div>{label}</div>
    </div>
  );
}

export function Empty({ title, children }: { title: string; children?: ComponentChildren }) {
  return (
    <div class="state">
      <div class="title">{title}</div>
      {children}
    </div>
  );
}

/** Says whether the trouble is the network (try again later) or the request (fix something). */
export function ErrorState({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const offline = error instanceof ApiError && error.isNetwork;
  const forbidden = error instanceof ApiError && error.status === 403;
  const notFound = error instanceof ApiError && error.status === 404;
  const title = offline ? 'No connection' : forbidden ? 'Not allowed' : notFound ? 'Not found' : 'Something went wrong';
  const message = error instanceof Error ? error.message : String(error);
  return (
    <div class="state error" role="alert">
      <div class="title">{title}</div>
      <div>{message}</div>
      {onRetry && (
        <div style={{ marginTop: '0.75rem' }}>
          <Button onClick={onRetry}>Try again</Button>
        </div>
      )}
    </div>
  );
}
