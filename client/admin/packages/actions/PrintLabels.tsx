import { useState } from 'preact/hooks';
import { errorMessage } from '../../../api/client';
import { downloadFile } from '../../../api/upload';
import { Button } from '../../../ui/Button';
import { toast } from '../../../ui/toast';

/**
 * Downloads shipping labels as PDF: 4x6 inch for a thermal printer, or four to an A4 sheet for an
 * office printer. `ids`: one parcel, a selection, or the parcels an upload created.
 */
export function PrintLabels({ ids, label = 'Print labels' }: { ids: readonly number[]; label?: string }) {
  const [busy, setBusy] = useState<string | null>(null);
  const get = async (layout: '4x6' | 'a4') => {
    setBusy(layout);
    try {
      const path = ids.length === 1 ? `package/${ids[0]}/label/` : 'package/labels/';
      await downloadFile(path, ids.length === 1 ? { layout } : { ids: ids.join(','), layout }, `labels-${layout}.pdf`);
    } catch (err) {
      toast(errorMessage(err), 'bad');
    } finally {
      setBusy(null);
    }
  };
  return (
    <span class="row" role="group" aria-label={label}>
      <Button busy={busy === '4x6'} disabled={!ids.length} onClick={() => void get('4x6')}>
        {label} (4×6)
      </Button>
      <Button busy={busy === 'a4'} disabled={!ids.length} onClick={() => void get('a4')}>
        {label} (A4 ×4)
      </Button>
    </span>
  );
}

/** A driver's manifest of open parcels, in delivery order. */
export function DriverManifest({ driver }: { driver: number }) {
  const [busy, setBusy] = useState(false);
  const get = async () => {
    setBusy(true);
    try {
      await downloadFile('package/manifest/', { driver }, 'manifest.pdf');
    } catch (err) {
      toast(errorMessage(err), 'bad');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button busy={busy} onClick={() => void get()}>
      Driver manifest (PDF)
    </Button>
  );
}
