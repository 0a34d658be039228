import { useState } from 'preact/hooks';
import type { z } from 'zod';
import type { Company } from '../../../shared/schemas/people';
import { api } from '../../api/client';
import { useList } from '../../api/useList';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { DataTable, Pager, type Column } from '../../ui/DataTable';
import { ConfirmDialog } from '../../ui/Dialog';
import { Empty, ErrorState, Loading } from '../../ui/States';
import { toast } from '../../ui/toast';
import { useBusy } from '../../ui/useBusy';
import { forgetRefs } from '../resource/refOptions';
import { ORG_PATHS } from '../routes/paths';
import { shortDateTime } from '../../ui/when';

type CompanyRow = z.infer<typeof Company>;
type Decision = { company: CompanyRow; status: 'active' | 'suspended' } | null;

const COLUMNS: Column<CompanyRow>[] = [
  { key: 'name', label: 'Company', sort: 'name', render: (c) => <strong>{c.name}</strong> },
  { key: 'code', label: 'Code', sort: 'code' },
  { key: 'email', label: 'E-mail' },
  { key: 'phone', label: 'Phone' },
  { key: 'abn', label: 'ABN' },
  {
    key: 'created_at',
    label: 'Registered',
    sort: 'created_at',
    render: (c) => shortDateTime(c.created_at),
  },
];

/** Self-registered companies waiting for approval: approve (active) or refuse (suspended). */
export default function CompanyApprovals() {
  const list = useList<CompanyRow>(ORG_PATHS.companies, { ordering: '-created_at', pageSize: 25, filters: { status: 'pending' } });
  const [decision, setDecision] = useState<Decision>(null);
  const [busy, run] = useBusy();
  const { data, params } = list;

  const decide = async () => {
    if (!decision) return;
    await run(async () => {
      await api.post(ORG_PATHS.companyStatus(decision.company.id), { status: decision.status });
      toast(`${decision.company.name} ${decision.status === 'active' ? 'approved: its logins can sign in' : 'refused (suspended)'}`, 'ok');
      forgetRefs('company');
      setDecision(null);
      list.reload();
    });
  };

  return (
    <section aria-labelledby="approvals-title">
      <div class="page-head">
        <h1 id="approvals-title">Company approvals</h1>
        {data && <Badge tone={data.count ? 'warn' : 'ok'}>{data.count} pending</Badge>}
        <span class="spacer" />
        <a href="#/r/company">All companies</a>
      </div>
      <p class="muted">Companies that registered themselves cannot sign in until they are approved.</p>
      {list.error ? (
        <ErrorState error={list.error} onRetry={list.reload} />
      ) : !data ? (
        <Loading />
      ) : data.results.length === 0 ? (
        <div class="card">
          <Empty title="No registration waiting" />
        </div>
      ) : (
        <div aria-busy={list.loading ? 'true' : undefined}>
          <DataTable<CompanyRow>
            columns={COLUMNS}
            rows={data.results}
            rowKey={(c) => c.id}
            caption="Pending companies"
            ordering={params.ordering}
            onOrdering={(o) => list.setParams({ ordering: o })}
            actions={(c) => (
              <div class="row">
                <Button size="small" variant="primary" onClick={() => setDecision({ company: c, status: 'active' })}>
                  Approve
                </Button>
                <Button size="small" onClick={() => setDecision({ company: c, status: 'suspended' })}>
                  Refuse
                </Button>
              </div>
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
      {decision && (
        <ConfirmDialog
          title={decision.status === 'active' ? `Approve ${decision.company.name}?` : `Refuse ${decision.company.name}?`}
          confirmLabel={decision.status === 'active' ? 'Approve' : 'Refuse'}
          danger={decision.status === 'suspended'}
          busy={busy}
          message={
            decision.status === 'active' ? (
              <p>Its logins can sign in and send packages.</p>
            ) : (
              <p>The company is suspended: its logins cannot sign in. You can reactivate it later from Companies.</p>
            )
          }
          onConfirm={() => void decide()}
          onClose={() => setDecision(null)}
        />
      )}
    </section>
  );
}
