import { REFS } from '../resource/declarations';
import { useRefOptions } from '../resource/refOptions';

/** The drivers as choices, and their names by id (for report rows). */
export function useDrivers(): { options: { value: string; label: string }[]; nameOf: (id: number | null) => string } {
  const { options } = useRefOptions(REFS.driver);
  return {
    options,
    nameOf: (id) => (id == null ? 'All drivers' : (options.find((o) => o.value === String(id))?.label ?? `Driver #${id}`)),
  };
}
