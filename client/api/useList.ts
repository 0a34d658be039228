import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { fetchPage, type ListParams, type Page } from './paging';

export interface ListState<T> {
  params: ListParams;
  setParams: (patch: Partial<ListParams>) => void;
  setFilter: (name: string, value: string) => void;
  data: Page<T> | null;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

/**
 * One paged list: paging, search (debounced), ordering and filters, with the newest answer winning
 * when requests overlap. A null path means "nothing to load yet".
 */
export function useList<T>(path: string | null, initial: Partial<ListParams> = {}): ListState<T> {
  const [params, setAll] = useState<ListParams>({ page: 1, pageSize: 25, filters: {}, ...initial });
  const [data, setData] = useState<Page<T> | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);
  const [search, setSearch] = useState(params.search ?? '');
  const seq = useRef(0);

  useEffect(() => {
    const t = setTimeout(() => setSearch(params.search ?? ''), 300);
    return () => clearTimeout(t);
  }, [params.search]);

  useEffect(() => {
    if (!path) return;
    const mine = ++seq.current;
    const ctrl = new AbortController();
    setLoading(true);
    fetchPage<T>(path, { ...params, search }, ctrl.signal).then(
      (page) => {
        if (mine === seq.current) {
          setData(page);
          setError(null);
          setLoading(false);
        }
      },
      (err: unknown) => {
        if (err instanceof DOMException && err.name === 'AbortError') return;
        if (mine === seq.current) {
          setError(err);
          setLoading(false);
        }
      },
    );
    return () => ctrl.abort();
  }, [path, params.page, params.pageSize, params.ordering, JSON.stringify(params.filters), search, tick]);

  const setParams = useCallback((patch: Partial<ListParams>) => {
    // Anything but a page change sends the user back to page 1: page 7 of a new filter may not exist.
    setAll((p) => ({ ...p, ...patch, page: patch.page ?? 1 }));
  }, []);
  const setFilter = useCallback((name: string, value: string) => {
    setAll((p) => ({ ...p, page: 1, filters: { ...p.filters, [name]: value } }));
  }, []);
  const reload = useCallback(() => setTick((n) => n + 1), []);
  return { params, setParams, setFilter, data, error, loading, reload };
}
