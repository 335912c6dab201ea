/**
 * Column sorting done by the server: a column with a `sortKey` gets antd's sorter arrows; a click
 * asks the server for that key and direction (a third click goes back to the list's default
 * order). Only the list's enumerated keys travel, never a column or SQL (docs/API.md, Sorting).
 */
import type { TableColumnType, TableProps } from 'antd';

import type { SortRequest } from '../../../contract/constants';
import type { ColumnConfig } from './types';

type Sorter<Row> = Parameters<NonNullable<TableProps<Row>['onChange']>>[2];

/** antd's sorter props for sortable columns, showing the current sort. */
export function sortableColumn<Row>(column: ColumnConfig<Row>, sort: SortRequest | undefined): TableColumnType<Row> {
  const { sortKey, ...rest } = column;
  if (!sortKey) return rest;
  return { ...rest, sorter: true, sortOrder: sort?.field === sortKey ? sort.order : null, sortDirections: ['ascend', 'descend'] };
}

/** The sort request a table's sorter change stands for; undefined = the default order. */
export function sortOfChange<Row>(sorter: Sorter<Row>, columns: ColumnConfig<Row>[]): SortRequest | undefined {
  const single = Array.isArray(sorter) ? sorter[0] : sorter;
  if (!single?.order) return undefined;
  const column = columns.find((candidate) => (candidate.key ?? candidate.dataIndex) === single.columnKey);
  return column?.sortKey ? { field: column.sortKey, order: single.order } : undefined;
}
