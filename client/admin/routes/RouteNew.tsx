import { useState } from 'preact/hooks';
import { RouteCreate, type RouteRecord } from '../../../shared/schemas/routes';
import { api, errorMessage, fieldErrors } from '../../api/client';
import { navigate } from '../../app/router';
import { zodErrors } from '../../app/zodErrors';
import { Button, LinkButton } from '../../ui/Button';
import { SelectField, TextField } from '../../ui/Field';
import { toast } from '../../ui/toast';
import { REFS } from '../resource/declarations';
import { useRefOptions } from '../resource/refOptions';
import { today } from './format';
import { PackagePicker } from './PackagePicker';
import { ROUTE_PATHS } from './paths';
import './routes.css';

/** A new route: name, day, optional warehouse and driver, and the parcels picked from a filtered list. */
export default function RouteNew() {
  const [name, setName] = useState('');
  const [date, setDate] = useState(today());
  const [warehouse, setWarehouse] = useState('');
  const [driver, setDriver] = useState('');
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const warehouses = useRefOptions(REFS.warehouse);
  const drivers = useRefOptions(REFS.driver);

  const submit = async (e: Event) => {
    e.preventDefault();
    const body = {
      name: name.trim() || `Route ${date}`,
      date,
      packages: [...selected],
      warehouse: warehouse ? Number(warehouse) : null,
      driver: driver ? Number(driver) : null,
    };
    const parsed = RouteCreate.safeParse(body);
    if (!parsed.success) {
      setErrors(zodErrors(parsed.error));
      setFormError('Check the highlighted fields.');
      return;
    }
    if (selected.size === 0) {
      setFormError('Choose at least one parcel for the route.');
      return;
    }
    setBusy(true);
    setFormError(null);
    try {
      const res = await api.post<{ message: string; route: RouteRecord }>(ROUTE_PATHS.routes, parsed.data);
      toast(res.message, 'ok');
      navigate(`/routes/${res.route.id}`);
    } catch (err) {
      setErrors(fieldErrors(err));
      setFormError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="route-new-title">
      <div class="page-head">
        <h1 id="route-new-title">New route</h1>
        <span class="spacer" />
        <LinkButton href="#/routes">Back to routes</LinkButton>
      </div>
      <form class="card stack" onSubmit={(e) => void submit(e)} noValidate>
        <div class="form-grid">
          <TextField
            label="Route name"
            name="name"
            value={name}
            onValue={setName}
            error={errors.name}
            placeholder={`Route ${date}`}
            maxLength={200}
          />
          <TextField label="Date" name="date" type="date" value={date} onValue={setDate} error={errors.date} required />
          <SelectField
            label="Warehouse"
            name="warehouse"
            value={warehouse}
            onValue={setWarehouse}
            options={warehouses.options}
            placeholder="— none —"
            error={errors.warehouse}
          />
          <SelectField
            label="Driver"
            name="driver"
            value={driver}
            onValue={setDriver}
            options={drivers.options}
            placeholder="Assign later"
            error={errors.driver}
            hint="With a driver, the parcels are assigned to them"
          />
        </div>
        {(formError || errors.packages) && (
          <div class="form-error" role="alert" data-testid="form-error">
            {formError ?? errors.packages}
          </div>
        )}
        <div class="row sticky-actions">
          <strong data-testid="picked-count">{selected.size} parcel(s) chosen</strong>
          {selected.size > 0 && (
            <Button variant="ghost" onClick={() => setSelected(new Set())}>
              Clear
            </Button>
          )}
          <span class="spacer" />
          <Button type="submit" variant="primary" busy={busy}>
            Create route
          </Button>
        </div>
      </form>
      <h2>Parcels</h2>
      <PackagePicker
        selected={selected}
        onSelected={(next) => {
          setSelected(next);
          setFormError(null);
        }}
      />
    </section>
  );
}
