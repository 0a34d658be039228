import { useEffect, useRef, useState } from 'preact/hooks';
import { errorMessage, type Query } from '../../api/client';
import { Button } from '../../ui/Button';
import { fetchWithProgress, formatBytes, saveBlob, type DownloadProgress } from '../../ui/download';
import { toast } from '../../ui/toast';

export interface ExportTarget {
  label: string;
  path: string;
  query: Query;
  fallbackName: string;
}

type State =
  | { kind: 'idle' }
  | { kind: 'running'; label: string; progress: DownloadProgress }
  | { kind: 'done'; label: string; progress: DownloadProgress; name: string };

function describe(p: DownloadProgress): string {
  const rows =
    p.rows != null && p.totalRows != null
      ? `${p.rows.toLocaleString()} of ${p.totalRows.toLocaleString()} rows`
      : p.totalRows != null
        ? `${p.totalRows.toLocaleString()} rows`
        : '';
  return [rows, formatBytes(p.bytes)].filter(Boolean).join(' · ');
}

/**
 * Export buttons with one shared progress bar and a Cancel button. One export at a time: a second
 * click while one runs would only compete for the same connection.
 */
export function ExportButtons({ targets, disabled }: { targets: readonly ExportTarget[]; disabled?: boolean }) {
  const [state, setState] = useState<State>({ kind: 'idle' });
  const ctrl = useRef<AbortController | null>(null);
  useEffect(() => () => ctrl.current?.abort(), []);

  const run = async (t: ExportTarget) => {
    const c = new AbortController();
    ctrl.current = c;
    const start: DownloadProgress = { bytes: 0, rows: null, totalRows: null, fraction: null };
    setState({ kind: 'running', label: t.label, progress: start });
    try {
      const file = await fetchWithProgress(
        t.path,
        t.query,
        t.fallbackName,
        (progress) => setState({ kind: 'running', label: t.label, progress }),
        c.signal,
      );
      saveBlob(file.blob, file.name);
      setState({ kind: 'done', label: t.label, progress: file.progress, name: file.name });
    } catch (err) {
      setState({ kind: 'idle' });
      if (err instanceof DOMException && err.name === 'AbortError') toast('Export cancelled', 'info');
      else toast(errorMessage(err), 'bad');
    } finally {
      if (ctrl.current === c) ctrl.current = null;
    }
  };

  const running = state.kind === 'running';
  const pct = state.kind === 'done' ? 100 : running && state.progress.fraction != null ? Math.round(state.progress.fraction * 100) : null;
  return (
    <div class="export-box">
      <div class="row">
        {targets.map((t) => (
          <Button key={t.label} disabled={disabled || running} busy={running && state.label === t.label} onClick={() => void run(t)}>
            {t.label}
          </Button>
        ))}
        {running && (
          <Button variant="danger" onClick={() => ctrl.current?.abort()}>
            Cancel
          </Button>
        )}
      </div>
      {state.kind !== 'idle' && (
        <div class="export-progress" data-testid="export-progress" data-state={state.kind}>
          <div
            class="progress"
            role="progressbar"
            aria-label={`${state.label} progress`}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={pct ?? undefined}
            aria-valuetext={pct == null ? 'Downloading' : `${pct}%`}
          >
            <div class={pct == null ? 'indeterminate' : undefined} style={{ width: `${pct ?? 35}%` }} />
          </div>
          <span class="muted" aria-live="polite">
            {state.kind === 'done'
              ? `Saved ${state.name} · ${describe(state.progress)}`
              : `${pct == null ? 'Downloading' : `${pct}%`} · ${describe(state.progress)}`}
          </span>
        </div>
      )}
    </div>
  );
}
