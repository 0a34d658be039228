import { offers } from '../../shared/driverActions';
import type { ViewPackage } from '../sync/index';
import { rulesFor } from './day';
import { usePackages } from './hooks';

export function usePackage(id: number): { p: ViewPackage | null; loaded: boolean } {
  const { packages, loaded } = usePackages();
  return { p: packages.find((x) => x.id === id) ?? null, loaded };
}

/**
 * The server's rules (shared/driverActions.ts, the function the server decides with), checked on
 * the phone so the driver is not offered what will be refused: never delivery of a parcel that
 * must go back to the depot.
 */
export const canDeliver = (p: ViewPackage, max: number) => offers('deliver', p, rulesFor(p, max));
export const canFail = (p: ViewPackage, max: number) => offers('fail', p, rulesFor(p, max));
