import { useState } from 'preact/hooks';
import type { Package } from '../sync/index';
import { StatusBadge } from '../ui/Badge';
import { Button } from '../ui/Button';
import { OnlineState } from './OnlineState';
import { useOnline } from './useOnline';
import { dateTime } from '../ui/when';

interface Item {
  package: Package;
  last_action: string;
  last_at: string;
}
interface Page {
  count: number;
  results: Item[];
}

const FILTERS = [
  { value: '', label: 'All' },
  { value: 'delivered', label: 'Delivered' },
  { value: 'failed', label: 'Failed' },
  { value: 'returned', label: 'Returned' },
];

export default function History() {
  const [status, setStatus] = useState('');
  const q = new URLSearchParams({ page_size: '100', ...(status ? { status } : {}) });
  const res = useOnline<Page>(`history/?${q.toString()}`);
  return (
    <div class="drv-screen" data-testid="history">
      <h1>History</h1>
      <div class="chips" role="group" aria-label="Filter">
        {FILTERS.map((f) => (
          <Button key={f.value} aria-pressed={status === f.value} onClick={() => setStatus(f.value)}>
            {f.label}
          </Button>
        ))}
      </div>
      <OnlineState {...res}>
        {(page) =>
          page.results.length === 0 ? (
            <p class="muted">Nothing here yet.</p>
          ) : (
            <ul class="stops">
              {page.results.map((it) => (
                <li key={it.package.id}>
                  <a href={`#/driver/history/${it.package.id}`}>
                    <span class="body">
                      <span class="line1">
                        <span class="mono">{it.package.hawb}</span> <StatusBadge status={it.package.status} />
                      </span>
                      <span class="line2">
                        {it.package.customer_name ?? '—'} · {dateTime(it.last_at)}
                      </span>
                    </span>
                  </a>
                </li>
              ))}
            </ul>
          )
        }
      </OnlineState>
    </div>
  );
}
