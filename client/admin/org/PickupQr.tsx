import { useEffect, useState } from 'preact/hooks';
import { apiUrl, authHeaders, errorFromResponse, errorMessage } from '../../api/client';
import { useList } from '../../api/useList';
import { Button } from '../../ui/Button';
import { DataTable, Pager, type Column } from '../../ui/DataTable';
import { Dialog } from '../../ui/Dialog';
import { Empty, ErrorState, Loading } from '../../ui/States';
import type { Row } from '../resource/types';
import { ORG_PATHS } from '../routes/paths';
import './org.css';

const str = (v: unknown) => (v == null ? '' : String(v));
const COLUMNS: Column<Row>[] = [
  { key: 'person_name', label: 'Contact', sort: 'person_name' },
  { key: 'address', label: 'Address' },
  { key: 'suburb', label: 'Suburb', sort: 'suburb' },
  { key: 'pincode', label: 'Postcode', sort: 'pincode' },
  { key: 'phone', label: 'Phone' },
];

/** Pickup points and the QR code each displays for drivers to scan; printable on its own sheet. */
export default function PickupQr() {
  const list = useList<Row>(ORG_PATHS.pickupPoints, { pageSize: 25 });
  const [shown, setShown] = useState<Row | null>(null);
  const { data, params } = list;
  return (
    <section aria-labelledby="qr-title">
      <div class="page-head">
        <h1 id="qr-title">Pickup point QR codes</h1>
        <span class="spacer" />
        <a href="#/r/pickup-point">Edit pickup points</a>
      </div>
      <p class="muted">Print a point's code and stick it where the driver collects: the driver app scans it to confirm the visit.</p>
      <div class="toolbar">
        <div class="field search">
          <label for="qr-search">Search</label>
          <input
            id="qr-search"
            class="input"
            type="search"
            placeholder="Contact, address"
            value={params.search ?? ''}
            onInput={(e) => list.setParams({ search: (e.currentTarget as HTMLInputElement).value })}
          />
        </div>
      </div>
      {list.error ? (
        <ErrorState error={list.error} onRetry={list.reload} />
      ) : !data ? (
        <Loading />
      ) : data.results.length === 0 ? (
        <div class="card">
          <Empty title="No pickup points" />
        </div>
      ) : (
        <div>
          <DataTable<Row>
            columns={COLUMNS}
            rows={data.results}
            rowKey={(r) => r.id}
            caption="Pickup points"
            ordering={params.ordering}
            onOrdering={(o) => list.setParams({ ordering: o })}
            actions={(r) => (
              <Button size="small" onClick={() => setShown(r)}>
                QR code
              </Button>
            )}
          />
          <Pager
            page={params.page}
            pageSize={params.pageSize}
            count={data.count}
            onPage={(p) => list.setParams({ page: p })}
            onPageSize={(n) => list.setParams({ pageSize: n })}
          />
        </div>
      )}
      {shown && <QrDialog point={shown} onClose={() => setShown(null)} />}
    </section>
  );
}

function QrDialog({ point, onClose }: { point: Row; onClose: () => void }) {
  const [src, setSrc] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let url: string | null = null;
    let live = true;
    // An <img src> cannot carry the bearer token: fetch the SVG, show it as a blob URL (an image, so its markup never runs).
    fetch(apiUrl(ORG_PATHS.pickupQr(point.id), { format: 'svg', size: 512 }), { headers: authHeaders() })
      .then(async (res) => {
        if (!res.ok) throw await errorFromResponse(res);
        const text = res.headers.get('x-qr-text') ?? '';
        const blob = await res.blob();
        if (!live) return;
        url = URL.createObjectURL(new Blob([blob], { type: 'image/svg+xml' }));
        setSrc(url);
        setCode(text);
      })
      .catch((err: unknown) => {
        if (live) setError(errorMessage(err));
      });
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [point.id]);

  const print = () => {
    document.body.classList.add('printing-qr');
    const done = () => {
      document.body.classList.remove('printing-qr');
      window.removeEventListener('afterprint', done);
    };
    window.addEventListener('afterprint', done);
    window.print();
  };

  const where = [str(point.address), str(point.suburb), str(point.pincode)].filter(Boolean).join(', ');
  return (
    <Dialog
      title={`QR code — ${str(point.person_name) || `pickup point ${point.id}`}`}
      narrow
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Close</Button>
          <Button variant="primary" disabled={!src} onClick={print}>
            Print
          </Button>
        </>
      }
    >
      {error ? (
        <div class="form-error" role="alert">
          {error}
        </div>
      ) : !src ? (
        <Loading label="Making the code…" />
      ) : (
        <div class="qr-sheet">
          <img src={src} alt={`QR code of pickup point ${point.id}`} data-testid="qr-image" />
          <div class="qr-name">{str(point.person_name)}</div>
          <div>{where}</div>
          <div class="mono small muted">{code}</div>
        </div>
      )}
    </Dialog>
  );
}
