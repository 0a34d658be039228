import { describe, expect, it } from 'vitest';
import { PlanSettings } from '../../shared/schemas/dispatch';
import { formToSettings, settingsToForm } from '../../client/admin/fleet/planSettingsForm';
import { fieldsOf, initialValues, toBody } from '../../client/admin/resource/zodFields';
import { VehicleCreate } from '../../shared/schemas/dispatch';

describe('plan settings form (issue 32)', () => {
  it('round-trips stored settings through the form, hours on screen and minutes on the wire', () => {
    const stored = PlanSettings.parse({
      costs: { per_hour: 42.5, per_km: 0.65, per_vehicle: 30, unserved_penalty: 500 },
      break: { minutes: 30, after_min: 270, after_max: 330 },
      max_route_minutes: 600,
      max_stops: 40,
      balance: { by: 'duration', weight: 0.3 },
    });
    const form = settingsToForm(stored);
    expect(form).toMatchObject({ break_after_min: '4.5', break_after_max: '5.5', max_route_minutes: '10' });
    expect(PlanSettings.parse(formToSettings(form))).toEqual(stored);
  });

  it('an empty form means distance only: no costs, no break, no limits', () => {
    const body = formToSettings(settingsToForm(PlanSettings.parse({})));
    expect(body).toEqual({});
    expect(PlanSettings.safeParse(body).success).toBe(true);
  });

  it("a van's skills are one line of words separated by commas", () => {
    const fields = fieldsOf(VehicleCreate);
    const skills = fields.find((f) => f.name === 'skills');
    expect(skills?.kind).toBe('list');
    const values = { ...initialValues(fields), name: 'Fridge van', skills: 'Refrigerated, tail-lift,' };
    const parsed = VehicleCreate.parse(toBody(fields, values, 'create', new Set()));
    expect(parsed.skills).toEqual(['refrigerated', 'tail-lift']);
    expect(initialValues(fields, { skills: ['refrigerated', 'tail-lift'] }).skills).toBe('refrigerated, tail-lift');
  });
});
