/** The table and pager of a paged list, usable alone (e.g. in a dialog) with `useInquire`. */
import { Table, type TableColumnType } from 'antd';

import { useMenuDictContext, type MenuDict } from './menu-dict';
import type { ColumnConfig } from './types';
import type { Inquiry } from './use-inquire';

const PAGE_SIZE_OPTIONS = [10, 15, 20, 50, 100];

export interface PagedTableProps<Row> {
  inquiry: Inquiry<Row>;
  columns: ColumnConfig<Row>[];
  rowKey?: keyof Row & string;
}

/** A `dict` column shows the dictionary label (as text, never HTML) unless it renders itself. */
function withDictLabels<Row>(columns: ColumnConfig<Row>[], dict: MenuDict): TableColumnType<Row>[] {
  return columns.map(({ dict: field, ...column }) => {
    const key = column.key ?? column.dataIndex;
    if (!field || column.render) return { ...column, key };
    return { ...column, key, render: (value: unknown) => dict.labelOf(field, value) };
  });
}

export function PagedTable<Row extends object>({ inquiry, columns, rowKey }: PagedTableProps<Row>) {
  const dict = useMenuDictContext();
  const { data, loading, current, size, changePage } = inquiry;
  return (
    <Table<Row>
      rowKey={rowKey ?? ('id' as keyof Row & string)}
      columns={withDictLabels(columns, dict)}
      dataSource={data?.records ?? []}
      loading={loading}
      size="middle"
      pagination={{
        current,
        pageSize: size,
        total: data?.total ?? 0,
        showSizeChanger: true,
        pageSizeOptions: PAGE_SIZE_OPTIONS.includes(size) ? PAGE_SIZE_OPTIONS : [...PAGE_SIZE_OPTIONS, size].sort((a, b) => a - b),
        showTotal: (total) => `共 ${total} 条`,
        onChange: changePage,
      }}
    />
  );
}
