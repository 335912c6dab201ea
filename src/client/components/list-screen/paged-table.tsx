/** The table and pager of a paged list, usable alone (e.g. in a dialog) with `useInquire`. */
import { Table, type TableColumnType, type TableProps } from 'antd';

import type { SortRequest } from '../../../contract/constants';
import { RelativeTime } from '../relative-time';
import { useMenuDictContext, type MenuDict } from './menu-dict';
import { sortableColumn, sortOfChange } from './sorting';
import type { ColumnConfig } from './types';
import type { Inquiry } from './use-inquire';

const PAGE_SIZE_OPTIONS = [10, 15, 20, 50, 100];

export interface PagedTableProps<Row> {
  inquiry: Inquiry<Row>;
  columns: ColumnConfig<Row>[];
  rowKey?: keyof Row & string;
  /** Tick boxes on the rows (the list-screen block's batch actions). */
  rowSelection?: TableProps<Row>['rowSelection'];
  expandable?: TableProps<Row>['expandable'];
  /** Below this width the table scrolls sideways (ListScreenProps.minWidth). */
  minWidth?: number;
}

const NOWRAP_STYLE = { whiteSpace: 'nowrap' as const };
// A new object per cell: antd's sorter writes its click handler into the header cell's props.
const nowrapCell = () => ({ style: NOWRAP_STYLE });

/**
 * A `dict` column shows the dictionary label (as text, never HTML) and a `relativeTime` column the
 * recency of its time, unless the column renders itself; a `sortKey` column sorts on the server; a
 * `nowrap` column keeps its cells and its title on one line. Dictionary labels and recencies are
 * short words, so their columns are `nowrap` unless they say otherwise.
 */
function withCellRenderers<Row>(columns: ColumnConfig<Row>[], dict: MenuDict, sort: SortRequest | undefined): TableColumnType<Row>[] {
  return columns.map(({ dict: field, relativeTime, nowrap = field !== undefined || relativeTime === true, ...config }) => {
    const column = sortableColumn(nowrap ? { ...config, onCell: nowrapCell, onHeaderCell: nowrapCell } : config, sort);
    const key = column.key ?? config.dataIndex;
    if (column.render) return { ...column, key };
    if (relativeTime) return { ...column, key, render: (value: number | null) => <RelativeTime value={value} /> };
    if (field) return { ...column, key, render: (value: unknown) => dict.labelOf(field, value) };
    return { ...column, key };
  });
}

/** "共 37 条", or "共 10,000+ 条" when the list was counted only up to its cap. */
export function totalText(data: { total: number; totalIsLowerBound?: boolean } | undefined): string {
  if (!data) return '共 0 条';
  return data.totalIsLowerBound ? `共 ${data.total.toLocaleString('en-US')}+ 条` : `共 ${data.total} 条`;
}

export function PagedTable<Row extends object>({ inquiry, columns, rowKey, rowSelection, expandable, minWidth }: PagedTableProps<Row>) {
  const dict = useMenuDictContext();
  const { data, loading, current, size, changePage, sort, changeSort } = inquiry;
  return (
    <Table<Row>
      rowKey={rowKey ?? 'id'}
      rowSelection={rowSelection}
      expandable={expandable}
      columns={withCellRenderers(columns, dict, sort)}
      onChange={(_pagination, _filters, sorter, { action }) => {
        if (action === 'sort') changeSort(sortOfChange(sorter, columns));
      }}
      dataSource={data?.records ?? []}
      loading={loading}
      size="middle"
      scroll={minWidth === undefined ? undefined : { x: minWidth }}
      pagination={{
        current,
        pageSize: size,
        // A lower bound ("10,000+") always leaves one more page to ask for; the last page answers the exact total.
        total: data ? data.total + (data.totalIsLowerBound ? 1 : 0) : 0,
        showSizeChanger: true,
        pageSizeOptions: PAGE_SIZE_OPTIONS.includes(size) ? PAGE_SIZE_OPTIONS : [...PAGE_SIZE_OPTIONS, size].sort((a, b) => a - b),
        showTotal: () => totalText(data),
        onChange: changePage,
      }}
    />
  );
}
