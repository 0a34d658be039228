import type { SessionInfo } from '../sync/index';

const LINKS = [
  { href: '#/driver/pickups', label: 'Pickups', hint: 'Collect parcels at pickup points' },
  { href: '#/driver/history', label: 'History', hint: 'Parcels you delivered, failed or returned' },
  { href: '#/driver/cash', label: 'Cash', hint: 'Your float and cash collected today' },
  { href: '#/driver/earnings', label: 'Earnings', hint: 'This month, by day' },
  { href: '#/driver/support', label: 'Support', hint: 'Ask the office for help' },
  { href: '#/driver/profile', label: 'Profile', hint: 'Your details, password, log out' },
];

export default function More({ me }: { me: SessionInfo }) {
  return (
    <div class="drv-screen">
      <h1>{me.name}</h1>
      <ul class="menu">
        {LINKS.map((l) => (
          <li key={l.href}>
            <a href={l.href}>
              <strong>{l.label}</strong>
              <span>{l.hint}</span>
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
