import type { PlanSettings } from '../../../shared/schemas/dispatch';

/** The plan settings as the form holds them: text, with hours where the API counts minutes. */
export interface SettingsForm {
  per_hour: string;
  per_km: string;
  per_vehicle: string;
  unserved_penalty: string;
  break_minutes: string;
  break_after_min: string;
  break_after_max: string;
  max_route_minutes: string;
  max_stops: string;
  balance_by: string;
  balance_weight: string;
}

const text = (v: number | undefined) => (v == null ? '' : String(v));
const hours = (minutes: number | undefined) => (minutes == null ? '' : String(Math.round((minutes / 60) * 100) / 100));
const num = (s: string) => (s.trim() === '' ? undefined : Number(s.trim().replace(',', '.')));
const minutes = (s: string) => {
  const h = num(s);
  return h === undefined ? undefined : Math.round(h * 60);
};

export function settingsToForm(s: PlanSettings): SettingsForm {
  return {
    per_hour: text(s.costs?.per_hour),
    per_km: text(s.costs?.per_km),
    per_vehicle: text(s.costs?.per_vehicle),
    unserved_penalty: text(s.costs?.unserved_penalty),
    break_minutes: text(s.break?.minutes),
    break_after_min: hours(s.break?.after_min),
    break_after_max: hours(s.break?.after_max),
    max_route_minutes: hours(s.max_route_minutes),
    max_stops: text(s.max_stops),
    balance_by: s.balance?.by ?? '',
    balance_weight: text(s.balance?.weight),
  };
}

/** The body for `PUT dispatch/settings/`: empty rates mean no costs (distance only), an empty break none. */
export function formToSettings(f: SettingsForm): Record<string, unknown> {
  const rates = [f.per_hour, f.per_km, f.per_vehicle, f.unserved_penalty].some((v) => v.trim() !== '');
  return {
    ...(rates
      ? {
          costs: {
            per_hour: num(f.per_hour) ?? 0,
            per_km: num(f.per_km) ?? 0,
            per_vehicle: num(f.per_vehicle) ?? 0,
            ...(num(f.unserved_penalty) !== undefined ? { unserved_penalty: num(f.unserved_penalty) } : {}),
          },
        }
      : {}),
    ...(f.break_minutes.trim() !== ''
      ? { break: { minutes: num(f.break_minutes), after_min: minutes(f.break_after_min) ?? 0, after_max: minutes(f.break_after_max) ?? 0 } }
      : {}),
    ...(minutes(f.max_route_minutes) !== undefined ? { max_route_minutes: minutes(f.max_route_minutes) } : {}),
    ...(num(f.max_stops) !== undefined ? { max_stops: num(f.max_stops) } : {}),
    ...(f.balance_by ? { balance: { by: f.balance_by, weight: num(f.balance_weight) ?? 0.5 } } : {}),
  };
}
