import { useEffect, useState } from 'preact/hooks';
import type { Option } from '../../ui/Field';
import { REFS } from '../resource/declarations';
import { loadRefs } from '../resource/refOptions';

export interface RefData {
  options: Option[];
  name: (id: number | null | undefined, none?: string) => string;
}

/**
 * Choices and id -> name of a referenced resource (companies, zones, ...), through the same cache
 * as the resource forms. `enabled` false skips the request (a company login cannot list companies).
 */
export function useRefData(refName: keyof typeof REFS, enabled = true): RefData {
  const ref = REFS[refName];
  const [options, setOptions] = useState<Option[]>([]);
  useEffect(() => {
    if (!ref || !enabled) return;
    let live = true;
    loadRefs(ref.endpoint).then(
      (rows) => {
        if (live) setOptions(rows.map((r) => ({ value: String(r.id), label: ref.label(r) })));
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [ref?.endpoint, enabled]);
  const byId = new Map(options.map((o) => [o.value, o.label]));
  return { options, name: (id, none = '—') => (id == null ? none : (byId.get(String(id)) ?? `#${id}`)) };
}
