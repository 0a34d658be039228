import { useEffect, useState } from 'preact/hooks';
import { fetchAll } from '../../api/paging';
import type { Option } from '../../ui/Field';
import type { RefDecl, Row } from './types';

const cache = new Map<string, Promise<Row[]>>();

/** Records of a referenced resource, fetched once per page load and shared by every form and filter. */
export function loadRefs(endpoint: string): Promise<Row[]> {
  let p = cache.get(endpoint);
  if (!p) {
    p = fetchAll<Row>(`${endpoint}/`);
    // A failure is not cached: the next form that opens tries again.
    p.catch(() => cache.delete(endpoint));
    cache.set(endpoint, p);
  }
  return p;
}

export function forgetRefs(endpoint: string): void {
  cache.delete(endpoint);
}

export function useRefOptions(ref: RefDecl | undefined): { options: Option[]; failed: boolean } {
  const [options, setOptions] = useState<Option[]>([]);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (!ref) return;
    let live = true;
    loadRefs(ref.endpoint).then(
      (rows) => {
        if (live) setOptions(rows.map((r) => ({ value: String(r.id), label: ref.label(r) })));
      },
      () => {
        if (live) setFailed(true);
      },
    );
    return () => {
      live = false;
    };
  }, [ref?.endpoint]);
  return { options, failed };
}
