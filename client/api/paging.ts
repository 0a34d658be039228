import type { Page } from '../../shared/schemas/common';
import { api, type Query } from './client';

export type { Page };

export interface ListParams {
  page: number;
  pageSize: number;
  search?: string;
  /** DRF style: `name` or `-name`. */
  ordering?: string;
  filters?: Record<string, string>;
}

export function listQuery(p: ListParams): Query {
  return { page: p.page, page_size: p.pageSize, search: p.search?.trim() || undefined, ordering: p.ordering || undefined, ...p.filters };
}

export function fetchPage<T>(path: string, params: ListParams, signal?: AbortSignal): Promise<Page<T>> {
  return api.get<Page<T>>(path, listQuery(params), signal);
}

export function pageCount(count: number, pageSize: number): number {
  return Math.max(1, Math.ceil(count / pageSize));
}

/** Every row of a list (for pickers such as "choose a driver"), bounded so a huge table cannot hang the tab. */
export async function fetchAll<T>(path: string, query: Query = {}, limit = 2000): Promise<T[]> {
  const out: T[] = [];
  for (let page = 1; out.length < limit; page++) {
    const res = await api.get<Page<T>>(path, { ...query, page, page_size: 500 });
    out.push(...res.results);
    if (!res.next || res.results.length === 0) break;
  }
  return out;
}
