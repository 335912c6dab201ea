/**
 * Paging state of one paged list: the page size the user picked is sent as `size`, the page as
 * `current`, the filters as `params` with empty values dropped (DESIGN 2).
 */
import { useCallback, useMemo, useState } from 'react';

import { PAGE_SIZE_DEFAULT, type Paged } from '../../../contract/constants';
import type { FormValues, PagedArg, PagedQueryHook } from './types';

export interface InquireOptions<A extends PagedArg> {
  pageSize?: number;
  /** Params every request carries (e.g. the dictId of a binding dialog), under the filters. */
  fixedParams?: Partial<NonNullable<A['params']>>;
  /** Suspend the query, e.g. while the dialog holding the table is closed. */
  skip?: boolean;
}

export interface Inquiry<Row> {
  data?: Paged<Row>;
  loading: boolean;
  current: number;
  size: number;
  /** New filters start again at page 1. */
  search(filters: FormValues): void;
  changePage(current: number, size: number): void;
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/** Filters as sent: empty values dropped, text trimmed. */
export function toParams(filters: FormValues): FormValues {
  const params: FormValues = {};
  for (const [key, value] of Object.entries(filters)) {
    if (!isEmpty(value)) params[key] = typeof value === 'string' ? value.trim() : value;
  }
  return params;
}

export function useInquire<A extends PagedArg, Row>(
  useQuery: PagedQueryHook<A, Row>,
  { pageSize = PAGE_SIZE_DEFAULT, fixedParams, skip = false }: InquireOptions<A> = {},
): Inquiry<Row> {
  const [paging, setPaging] = useState({ current: 1, size: pageSize });
  const [filters, setFilters] = useState<FormValues>({});
  const arg = useMemo(
    () => ({ size: paging.size, current: paging.current, params: { ...fixedParams, ...filters } }) as A,
    [paging, filters, fixedParams],
  );
  const { data, isFetching } = useQuery(arg, { skip });
  const search = useCallback((values: FormValues) => {
    setFilters(toParams(values));
    setPaging((previous) => ({ ...previous, current: 1 }));
  }, []);
  const changePage = useCallback((current: number, size: number) => {
    // A new page size starts again at page 1: the old page number may no longer exist.
    setPaging((previous) => ({ current: size === previous.size ? current : 1, size }));
  }, []);
  return { data, loading: isFetching, current: paging.current, size: paging.size, search, changePage };
}
