import type { ComponentChildren } from 'preact';
import type { PackageStatus } from '../../shared/lifecycle';

export type Tone = 'ok' | 'warn' | 'bad' | 'info' | 'muted';

export function Badge({ tone = 'muted', children }: { tone?: Tone; children: ComponentChildren }) {
  return <span class={`badge ${tone}`}>{children}</span>;
}

export const STATUS_TONE: Record<PackageStatus, Tone> = {
  pickup_requested: 'info',
  picked_up: 'info',
  created: 'muted',
  received: 'info',
  assigned: 'info',
  out_for_delivery: 'warn',
  delivered: 'ok',
  failed: 'bad',
  returned: 'warn',
  returned_to_sender: 'muted',
  cancelled: 'muted',
};

export function statusLabel(status: string): string {
  const s = status.replace(/_/g, ' ');
  return s.charAt(0).toUpperCase() + s.slice(1);
}

export function StatusBadge({ status }: { status: string }) {
  const tone = (STATUS_TONE as Record<string, Tone | undefined>)[status] ?? 'muted';
  return <Badge tone={tone}>{statusLabel(status)}</Badge>;
}

export function ActiveBadge({ active }: { active: boolean }) {
  return <Badge tone={active ? 'ok' : 'muted'}>{active ? 'Active' : 'Inactive'}</Badge>;
}
