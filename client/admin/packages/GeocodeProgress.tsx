import { useEffect, useState } from 'preact/hooks';
import type { z } from 'zod';
import type { GeocodeProgressAnswer } from '../../../shared/schemas/location';
import { api } from '../../api/client';
import { PATHS } from '../../api/paths';
import { Counter } from '../../ui/Counter';

type Progress = z.infer<typeof GeocodeProgressAnswer>;
const LABELS: [string, string][] = [
  ['exact', 'At the door'],
  ['street', 'Street'],
  ['suburb', 'Suburb only'],
  ['postcode', 'Postcode only'],
  ['none', 'Not located'],
];

/**
 * How precisely an upload's parcels are placed; with a geocoder configured, the rest fill in in the
 * background and this polls until they have (every parcel already has its suburb, zone and price).
 */
export function UploadLocations({ located, job }: { located?: Record<string, number>; job?: number | null }) {
  const [progress, setProgress] = useState<Progress | null>(null);
  useEffect(() => {
    if (job == null) return undefined;
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = () => {
      api.get<Progress>(PATHS.geocodeJob(job)).then(
        (p) => {
          if (!live) return;
          setProgress(p);
          if (p.pending > 0) timer = setTimeout(poll, 2000);
        },
        () => {
          if (live) timer = setTimeout(poll, 5000);
        },
      );
    };
    poll();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [job]);
  if (!located) return null;
  return (
    <div class="stack" data-testid="upload-locations">
      <h3 style={{ margin: 0 }}>Located</h3>
      <div class="counters">
        {LABELS.filter(([k]) => (located[k] ?? 0) > 0 || k === 'exact').map(([k, label]) => (
          <Counter
            key={k}
            label={label}
            value={located[k] ?? 0}
            tone={k === 'exact' || k === 'street' ? 'ok' : k === 'suburb' ? undefined : 'bad'}
          />
        ))}
      </div>
      {job != null && (
        <div role="status" aria-live="polite" class="stack">
          <div
            class="progress"
            role="progressbar"
            aria-valuemin={0}
            aria-valuemax={progress?.total ?? 1}
            aria-valuenow={progress?.done ?? 0}
          >
            <div style={{ width: `${progress && progress.total ? Math.round((progress.done / progress.total) * 100) : 0}%` }} />
          </div>
          <div class="muted">
            {!progress
              ? 'Asking the geocoder…'
              : progress.pending > 0
                ? `Geocoding in the background: ${progress.done} of ${progress.total} done. You can leave this page.`
                : `Geocoding finished: ${progress.located.exact ?? 0} of ${progress.total} placed at the door.`}
          </div>
        </div>
      )}
      {(located.suburb ?? 0) + (located.postcode ?? 0) + (located.none ?? 0) > 0 && (
        <a href="#/packages/review">Review the parcels placed only roughly</a>
      )}
    </div>
  );
}
