import type { ViewPackage } from '../sync/index';
import { usePackages } from './hooks';

export function usePackage(id: number): { p: ViewPackage | null; loaded: boolean } {
  const { packages, loaded } = usePackages();
  return { p: packages.find((x) => x.id === id) ?? null, loaded };
}

/** The server's rules (decisions-lifecycle.md), checked on the phone so the driver is not offered what will be refused. */
export const canDeliver = (p: ViewPackage, mustGoBack: boolean) => (p.status === 'assigned' || p.status === 'out_for_delivery' || p.status === 'failed') && !mustGoBack;
export const canFail = (p: ViewPackage) => p.status === 'out_for_delivery';
