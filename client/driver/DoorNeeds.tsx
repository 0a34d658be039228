import { choiceWords, requirementWords, type DoorInfo } from '../../shared/door';

/**
 * What a stop needs at the door and what the recipient chose (issue 34), from the phone's copy: shown
 * on the stop card and the Deliver screen before the driver knocks, with no signal too. A choice made
 * after the parcel left is marked late, never dropped.
 */
export function DoorNeeds({ door }: { door?: DoorInfo | undefined }) {
  if (!door) return null;
  const needs = requirementWords(door.requirements);
  return (
    <div class="door-needs" data-testid="door-needs">
      {needs.length > 0 && (
        <div>
          <span class="eyebrow">Needs at the door</span> <span data-testid="door-requirements">{needs.join(' · ')}</span>
        </div>
      )}
      {door.choice && (
        <div
          class={door.choice.late ? 'door-choice late' : 'door-choice'}
          data-testid="door-choice"
          role={door.choice.late ? 'alert' : undefined}
        >
          <span class="eyebrow">Recipient chose</span> {choiceWords(door.choice)}
        </div>
      )}
    </div>
  );
}
