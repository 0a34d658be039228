import type { z } from 'zod';
import type { UnpricedParcel } from '../../../shared/schemas/pricing';
import { api } from '../../api/client';
import { useList } from '../../api/useList';
import { isStaff } from '../../../shared/roles';
import type { Session } from '../../app/session';
import { navigate } from '../../app/router';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { DataTable, Pager, type Column } from '../../ui/DataTable';
import { Empty, ErrorState, Loading } from '../../ui/States';
import { toast } from '../../ui/toast';
import { useBusy } from '../../ui/useBusy';
import { shortDateTime } from '../../ui/when';
import './money.css';

type Row = z.infer<typeof UnpricedParcel>;
const REASON: Record<string, string> = { no_rate_line: 'No rate line fits', insufficient_balance: 'Prepaid wallet could not pay' };

/** Parcels accepted without a price (issue 18): the office sees them, adds rate lines, and prices them here once. */
export default function Unpriced({ session }: { session: Session }) {
  const staff = isStaff(session.user.role);
  const list = useList<Row>('package/unpriced/', { pageSize: 50 });
  const [busy, run] = useBusy();
  const { data } = list;
  const columns: Column<Row>[] = [
    {
      key: 'hawb',
      label: 'Tracking no',
      render: (r) => (
        <a class="mono" href={`#/packages/${r.package}`}>
          {r.hawb}
        </a>
      ),
    },
    ...(staff ? [{ key: 'company', label: 'Company', render: (r: Row) => r.company_name ?? `#${r.company}` }] : []),
    { key: 'weight', label: 'Weight', numeric: true, render: (r) => (r.weight == null ? '—' : `${r.weight} kg`) },
    { key: 'reason', label: 'Why', render: (r) => <Badge tone="warn">{REASON[r.reason] ?? r.reason}</Badge> },
    { key: 'since', label: 'Created', render: (r) => <span class="nowrap">{shortDateTime(r.since)}</span> },
  ];
  const priceNow = () =>
    run(async () => {
      const r = await api.post<{ message: string }>('package/unpriced/price/', {});
      toast(r.message, 'ok');
      list.reload();
    });
  return (
    <section aria-labelledby="unpriced-title">
      <div class="page-head">
        <h1 id="unpriced-title">Unpriced parcels</h1>
        {data && <Badge tone={data.count ? 'warn' : 'ok'}>{data.count}</Badge>}
        <span class="spacer" />
        {staff && <Button onClick={() => navigate('/money/rate-cards')}>Rate cards</Button>}
        {staff && (
          <Button variant="primary" busy={busy} onClick={() => void priceNow()}>
            Price now
          </Button>
        )}
      </div>
      <p class="muted">
        Accepted without a charge because no rate line fitted. Adding a rate line prices them at once; each is charged exactly once.
      </p>
      {list.error ? (
        <ErrorState error={list.error} onRetry={list.reload} />
      ) : !data ? (
        <Loading />
      ) : data.results.length === 0 ? (
        <div class="card">
          <Empty title="Every parcel is priced" />
        </div>
      ) : (
        <>
          <DataTable<Row> columns={columns} rows={data.results} rowKey={(r) => r.package} caption="Unpriced parcels" />
          <Pager
            page={list.params.page}
            pageSize={list.params.pageSize}
            count={data.count}
            onPage={(p) => list.setParams({ page: p })}
            onPageSize={(n) => list.setParams({ pageSize: n })}
          />
        </>
      )}
    </section>
  );
}
