import type { RouteStatus } from '../../../shared/schemas/routes';
import type { Tone } from '../../ui/Badge';

export const ROUTE_STATUS_LABELS: Record<RouteStatus, string> = {
  planned: 'Planned',
  in_progress: 'In progress',
  completed: 'Completed',
  cancelled: 'Cancelled',
};
export const ROUTE_STATUS_TONE: Record<RouteStatus, Tone> = {
  planned: 'info',
  in_progress: 'warn',
  completed: 'ok',
  cancelled: 'muted',
};
/** The moves the server allows (server/services/routes/manage.ts); the same status again is a no-op. */
export const NEXT_STATUS: Record<RouteStatus, RouteStatus[]> = {
  planned: ['in_progress', 'cancelled'],
  in_progress: ['completed', 'cancelled'],
  completed: [],
  cancelled: ['planned'],
};

export function distance(metres: number | null | undefined): string {
  if (metres == null) return '—';
  return metres < 1000 ? `${Math.round(metres)} m` : `${(metres / 1000).toFixed(1)} km`;
}

export function today(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/**
 * Marker colours by parcel status: hues that stay apart for colour-blind eyes (blue, orange, green,
 * red, purple, grey) and match the badge tones where they can; the legend always names them.
 */
export const STATUS_COLOURS: Record<string, string> = {
  created: '#6b7280',
  received: '#0b5cad',
  assigned: '#7c3aed',
  out_for_delivery: '#d97706',
  delivered: '#0f7b3b',
  failed: '#b3261e',
  pickup_requested: '#0891b2',
  picked_up: '#0891b2',
  returned: '#92400e',
};
export const OTHER_COLOUR = '#4a5260';
export const colourOf = (status: string): string => STATUS_COLOURS[status] ?? OTHER_COLOUR;
export const START_COLOUR = '#14181f';
export const LINE_COLOUR = '#0b3d91';
export const DRIVER_COLOUR = '#0b3d91';

export function initials(name: string): string {
  return (
    name
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((w) => w[0]!.toUpperCase())
      .join('') || '?'
  );
}

export function coordsOf(p: {
  latitude: number | null;
  longitude: number | null;
  coordinates?: { latitude: number; longitude: number } | null;
}): [number, number] | null {
  const lat = p.latitude ?? p.coordinates?.latitude ?? null;
  const lng = p.longitude ?? p.coordinates?.longitude ?? null;
  return lat != null && lng != null ? [lat, lng] : null;
}
