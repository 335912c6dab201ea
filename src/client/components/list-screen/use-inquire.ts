/**
 * Paging state of one paged list: the page size the user picked is sent as `size`, the page as
 * `current`, the filters as `params` with empty values dropped (docs/API.md, Paging), the column sort (if
 * any) as `sort`. Stepping one page on from the page shown also sends that page's last row id as
 * `after`, so a list of a million rows reads on from it instead of skipping every row before.
 */
import { useCallback, useMemo, useState } from 'react';

import { PAGE_SIZE_DEFAULT, type Paged, type SortRequest } from '../../../contract/constants';
import { useRefetchOnReturn } from '../../hooks/use-screen-activity';
import type { FormValues, PagedArg, PagedQueryHook } from './types';

export interface InquireOptions<A extends PagedArg> {
  pageSize?: number;
  /** Params every request carries (e.g. the dictId of a binding dialog), under the filters. */
  fixedParams?: Partial<NonNullable<A['params']>>;
  /** Suspend the query, e.g. while the dialog holding the table is closed. */
  skip?: boolean;
  /** The filters the list opens with (e.g. named by the URL query). */
  initialFilters?: FormValues;
}

export interface Inquiry<Row> {
  data?: Paged<Row>;
  loading: boolean;
  current: number;
  size: number;
  /** What the list shows: the fixed params and the filters, as sent. */
  params: FormValues;
  /** The filters alone, as sent. */
  filters: FormValues;
  /** The column sort; undefined = the server's default order. */
  sort?: SortRequest;
  /** New filters start again at page 1. */
  search: (filters: FormValues) => void;
  changePage: (current: number, size: number) => void;
  /** A new order starts again at page 1. */
  changeSort: (sort: SortRequest | undefined) => void;
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
  { pageSize = PAGE_SIZE_DEFAULT, fixedParams, skip = false, initialFilters }: InquireOptions<A> = {},
): Inquiry<Row> {
  const [paging, setPaging] = useState<{ current: number; size: number; after?: number }>({ current: 1, size: pageSize });
  const [filters, setFilters] = useState<FormValues>(() => toParams(initialFilters ?? {}));
  const [sort, setSort] = useState<SortRequest | undefined>(undefined);
  // Other fixed params (a unit picked in the tree beside the list) are another list: page 1 again,
  // and no `after` from a page of the previous one.
  // Compared by value: some callers pass a fresh object on every render.
  const fixedKey = JSON.stringify(fixedParams ?? {});
  const [shownFixed, setShownFixed] = useState(fixedKey);
  if (shownFixed !== fixedKey) {
    setShownFixed(fixedKey);
    setPaging((previous) => ({ current: 1, size: previous.size }));
  }
  const params = useMemo(() => ({ ...fixedParams, ...filters }), [fixedParams, filters]);
  const { size, current, after } = paging;
  const arg = useMemo(() => ({ size, current, ...(after === undefined ? {} : { after }), params, ...(sort ? { sort } : {}) }) as A, [size, current, after, params, sort]);
  const { data, currentData, isFetching, refetch } = useQuery(arg, { skip });
  // The last row of the page on screen (not of an earlier answer shown while this one loads).
  const lastShownId = (currentData?.records.at(-1) as { id?: unknown } | undefined)?.id;
  // Back on a tab kept open in the shell: same filters and page, current rows.
  useRefetchOnReturn(refetch, skip);
  const search = useCallback(
    (values: FormValues) => {
      const next = toParams(values);
      // 查询 with the filters already shown reads the list again: staff press it to see current rows
      // (a device that just came online), and the same arguments alone would answer from the cache.
      if (current === 1 && JSON.stringify(next) === JSON.stringify(filters)) {
        if (!skip) void refetch();
        return;
      }
      setFilters(next);
      setPaging((previous) => ({ current: 1, size: previous.size }));
    },
    [filters, current, refetch, skip],
  );
  const changePage = useCallback(
    (current: number, size: number) =>
      setPaging((previous) => {
        // A new page size starts again at page 1: the old page number may no longer exist.
        if (size !== previous.size) return { current: 1, size };
        const stepsOn = current === previous.current + 1 && typeof lastShownId === 'number';
        return stepsOn ? { current, size, after: lastShownId } : { current, size };
      }),
    [lastShownId],
  );
  const changeSort = useCallback((next: SortRequest | undefined) => {
    setSort(next);
    setPaging((previous) => ({ current: 1, size: previous.size }));
  }, []);
  return { data, loading: isFetching, current: paging.current, size: paging.size, params, filters, sort, search, changePage, changeSort };
}
