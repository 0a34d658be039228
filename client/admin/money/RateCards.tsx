import { useEffect, useState } from 'preact/hooks';
import { DEFAULT_VOLUMETRIC_DIVISOR } from '../../../shared/money';
import { api, errorMessage } from '../../api/client';
import { fetchAll } from '../../api/paging';
import { can } from '../../app/access';
import type { Session } from '../../app/session';
import { ActiveBadge, Badge } from '../../ui/Badge';
import { Button, LinkButton } from '../../ui/Button';
import { DataTable, type Column } from '../../ui/DataTable';
import { ConfirmDialog } from '../../ui/Dialog';
import { SelectField } from '../../ui/Field';
import { Empty, ErrorState, Loading } from '../../ui/States';
import { toast } from '../../ui/toast';
import { loadRefs } from '../resource/refOptions';
import { money } from './format';
import { RateLineDialog, type RateLine } from './RateLineDialog';
import { useRefData, type RefData } from './refs';
import './money.css';

/** `default` is the card of companies without their own; a number is a company's card. */
type CardKey = 'default' | number;

function band(l: RateLine, units: RefData): string {
  const unit = l.unit == null ? 'kg' : units.name(l.unit).replace(/^.*\(([^)]+)\)$/, '$1');
  return l.max_weight == null ? `${l.min_weight} ${unit} and over` : `${l.min_weight}–${l.max_weight} ${unit}`;
}

function sortLines(lines: RateLine[]): RateLine[] {
  return [...lines].sort(
    (a, b) => (a.zone ?? 0) - (b.zone ?? 0) || (a.package_type ?? 0) - (b.package_type ?? 0) || a.min_weight - b.min_weight || a.id - b.id,
  );
}

/**
 * Rate cards: the default card and each company's own card, each a set of lines (zone, package
 * type, weight band, prices). Staff edit lines; a company sees the card that prices its parcels.
 */
export default function RateCards({ session }: { session: Session }) {
  const role = session.user.role;
  if (role === 'company') return <OwnCard companyId={session.user.company} />;
  return <StaffCards canManage={can(role, 'rate.manage')} />;
}

function StaffCards({ canManage }: { canManage: boolean }) {
  const [lines, setLines] = useState<RateLine[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [tick, setTick] = useState(0);
  const [card, setCard] = useState<CardKey>('default');
  const [extraCards, setExtraCards] = useState<number[]>([]);
  const [startFor, setStartFor] = useState('');
  const [editing, setEditing] = useState<RateLine | 'new' | null>(null);
  const [deleting, setDeleting] = useState<RateLine[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [currencies, setCurrencies] = useState<Map<number, string>>(new Map());
  const companies = useRefData('company');
  const zones = useRefData('zone');
  const types = useRefData('package_type');
  const units = useRefData('unit');

  useEffect(() => {
    let live = true;
    fetchAll<RateLine>('delivery-rate/').then(
      (rows) => {
        if (live) {
          setLines(rows);
          setError(null);
        }
      },
      (err: unknown) => {
        if (live) setError(err);
      },
    );
    return () => {
      live = false;
    };
  }, [tick]);
  useEffect(() => {
    // Company lines must be in the company's billing currency; the company rows carry it.
    loadRefs('company').then(
      (rows) => setCurrencies(new Map(rows.map((r) => [r.id, String(r.currency ?? 'AUD')]))),
      () => undefined,
    );
  }, []);

  if (error) return <ErrorState error={error} onRetry={() => setTick((n) => n + 1)} />;
  if (!lines) return <Loading />;

  const byCard = new Map<CardKey, RateLine[]>([['default', []]]);
  for (const l of lines) {
    const k: CardKey = l.company ?? 'default';
    byCard.set(k, [...(byCard.get(k) ?? []), l]);
  }
  for (const c of extraCards) if (!byCard.has(c)) byCard.set(c, []);
  const keys = [...byCard.keys()].sort((a, b) =>
    a === 'default' ? -1 : b === 'default' ? 1 : companies.name(a).localeCompare(companies.name(b)),
  );
  const shown = sortLines(byCard.get(card) ?? []);
  const companyId = card === 'default' ? null : card;
  const currency = companyId != null ? (currencies.get(companyId) ?? shown[0]?.currency ?? 'AUD') : (shown[0]?.currency ?? 'AUD');
  const cardName = (k: CardKey) => (k === 'default' ? 'Default card' : companies.name(k));

  const columns: Column<RateLine>[] = [
    {
      key: 'zone',
      label: 'Zone',
      render: (l) => (
        <>
          <span class="nowrap">{zones.name(l.zone, 'Any zone')}</span>
          {!l.is_active && (
            <>
              {' '}
              <ActiveBadge active={false} />
            </>
          )}
        </>
      ),
    },
    { key: 'package_type', label: 'Package type', render: (l) => types.name(l.package_type, 'Any type') },
    {
      key: 'band',
      label: 'Weight band',
      render: (l) => (
        <>
          <span class="nowrap">{band(l, units)}</span>
          <div class="muted" style={{ fontSize: '0.82rem' }}>
            {[l.name, l.volumetric_divisor !== DEFAULT_VOLUMETRIC_DIVISOR ? `volumetric ÷${l.volumetric_divisor}` : '']
              .filter(Boolean)
              .join(' · ')}
          </div>
        </>
      ),
    },
    { key: 'base_cents', label: 'Base price', numeric: true, render: (l) => <span class="money">{money(l.base_cents, l.currency)}</span> },
    {
      key: 'per_unit_cents',
      label: 'Per extra unit',
      numeric: true,
      render: (l) => <span class="money">{money(l.per_unit_cents, l.currency)}</span>,
    },
  ];

  const remove = async () => {
    if (!deleting) return;
    setBusy(true);
    try {
      for (const l of deleting) await api.delete(`delivery-rate/${l.id}/`);
      toast(deleting.length === 1 ? 'Rate line deleted' : `${deleting.length} rate lines deleted`, 'ok');
      setDeleting(null);
      setTick((n) => n + 1);
    } catch (err) {
      toast(errorMessage(err), 'bad');
      setTick((n) => n + 1);
    } finally {
      setBusy(false);
    }
  };

  const startCard = () => {
    const id = Number(startFor);
    if (!id) return;
    setExtraCards((p) => [...p, id]);
    setCard(id);
    setStartFor('');
    if (canManage) setEditing('new');
  };
  const withoutCard = companies.options.filter((o) => !byCard.has(Number(o.value)));

  return (
    <section aria-labelledby="rates-title">
      <div class="page-head">
        <h1 id="rates-title">Rate cards</h1>
        <span class="spacer" />
        <LinkButton href="#/money/calculator">Price calculator</LinkButton>
      </div>
      <div class="rate-layout">
        <nav class="card" style={{ padding: 0 }} aria-label="Rate cards">
          <ul class="card-list">
            {keys.map((k) => (
              <li key={String(k)}>
                <button type="button" aria-current={card === k ? 'true' : undefined} onClick={() => setCard(k)}>
                  {cardName(k)}
                  <span class="sub">
                    {(byCard.get(k) ?? []).length} line(s){k === 'default' ? ' · companies without a card' : ''}
                  </span>
                </button>
              </li>
            ))}
          </ul>
          {canManage && (
            <div class="card-list-head stack">
              <SelectField
                label="New card for"
                name="new-card-company"
                value={startFor}
                onValue={setStartFor}
                options={withoutCard}
                placeholder="Choose a company"
              />
              <Button disabled={!startFor} onClick={startCard}>
                Start card
              </Button>
            </div>
          )}
        </nav>
        <div>
          <div class="page-head">
            <h2 style={{ margin: 0 }}>{cardName(card)}</h2>
            <Badge tone="info">{currency}</Badge>
            <span class="spacer" />
            {canManage && shown.length > 0 && (
              <Button variant="ghost" onClick={() => setDeleting(shown)}>
                Delete card
              </Button>
            )}
            {canManage && (
              <Button variant="primary" onClick={() => setEditing('new')}>
                Add line
              </Button>
            )}
          </div>
          {card === 'default' && (
            <p class="muted" style={{ marginTop: 0 }}>
              Prices every company that has no active line of its own. The most specific line wins: zone, then package type, then the
              narrowest band.
            </p>
          )}
          {shown.length === 0 ? (
            <div class="card">
              <Empty title="No lines on this card yet">
                {canManage ? 'Add a line for each zone and weight band you charge for.' : null}
              </Empty>
            </div>
          ) : (
            <DataTable<RateLine>
              columns={columns}
              rows={shown}
              rowKey={(l) => l.id}
              caption={`Lines of ${cardName(card)}`}
              actions={
                canManage
                  ? (l) => (
                      <div class="row">
                        <Button size="small" onClick={() => setEditing(l)}>
                          Edit
                        </Button>
                        <Button size="small" variant="ghost" aria-label={`Delete line ${l.id}`} onClick={() => setDeleting([l])}>
                          Delete
                        </Button>
                      </div>
                    )
                  : undefined
              }
            />
          )}
        </div>
      </div>
      {editing && (
        <RateLineDialog
          line={editing === 'new' ? null : editing}
          company={companyId}
          currency={currency}
          zones={zones}
          types={types}
          units={units}
          onClose={() => setEditing(null)}
          onSaved={() => {
            toast(editing === 'new' ? 'Rate line added' : 'Rate line saved', 'ok');
            setEditing(null);
            setTick((n) => n + 1);
          }}
        />
      )}
      {deleting && (
        <ConfirmDialog
          title={deleting.length === 1 ? 'Delete this rate line?' : `Delete all ${deleting.length} lines of ${cardName(card)}?`}
          danger
          busy={busy}
          message={
            <p>
              Parcels already priced keep their price. New parcels {card === 'default' ? 'without a card of their own' : 'of this company'}{' '}
              are priced by the remaining lines{card === 'default' ? '' : ' or the default card'}.
            </p>
          }
          confirmLabel="Delete"
          onConfirm={() => void remove()}
          onClose={() => setDeleting(null)}
        />
      )}
    </section>
  );
}

interface CardAnswer {
  company: number;
  currency: string;
  source: 'company' | 'default';
  rates: RateLine[];
}

function OwnCard({ companyId }: { companyId: number | null }) {
  const [data, setData] = useState<CardAnswer | null>(null);
  const [error, setError] = useState<unknown>(null);
  const zones = useRefData('zone');
  const types = useRefData('package_type');
  const units = useRefData('unit');
  useEffect(() => {
    if (companyId == null) return;
    api.get<CardAnswer>(`delivery-rate/rate-card-by-company/${companyId}/`).then(setData, setError);
  }, [companyId]);
  if (companyId == null)
    return (
      <div class="card">
        <Empty title="This login is not linked to a company" />
      </div>
    );
  if (error) return <ErrorState error={error} />;
  if (!data) return <Loading />;
  const columns: Column<RateLine>[] = [
    { key: 'zone', label: 'Zone', render: (l) => <span class="nowrap">{zones.name(l.zone, 'Any zone')}</span> },
    { key: 'package_type', label: 'Package type', render: (l) => types.name(l.package_type, 'Any type') },
    { key: 'band', label: 'Weight band', render: (l) => <span class="nowrap">{band(l, units)}</span> },
    { key: 'base_cents', label: 'Base price', numeric: true, render: (l) => <span class="money">{money(l.base_cents, l.currency)}</span> },
    {
      key: 'per_unit_cents',
      label: 'Per extra unit',
      numeric: true,
      render: (l) => <span class="money">{money(l.per_unit_cents, l.currency)}</span>,
    },
  ];
  return (
    <section aria-labelledby="rates-title">
      <div class="page-head">
        <h1 id="rates-title">Your rate card</h1>
        <Badge tone="info">{data.currency}</Badge>
        <span class="spacer" />
        <LinkButton href="#/money/calculator">Price calculator</LinkButton>
      </div>
      <p class="muted">
        {data.source === 'company'
          ? 'Your parcels are priced by your own card.'
          : 'You have no card of your own: your parcels are priced by the default card.'}
      </p>
      {data.rates.length === 0 ? (
        <div class="card">
          <Empty title="No rates yet">Ask the courier for a quote.</Empty>
        </div>
      ) : (
        <DataTable<RateLine> columns={columns} rows={sortLines(data.rates)} rowKey={(l) => l.id} caption="Rate card" />
      )}
    </section>
  );
}
