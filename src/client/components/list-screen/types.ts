/** The configuration vocabulary of the list-screen block (see index.ts for the whole picture). */
import type { FormRule, TableColumnType, TableProps } from 'antd';
import type { ComponentType, ReactNode } from 'react';

import type { Envelope, Paged } from '../../../contract/constants';
import type { TagType } from '../../lib/http/api';
import type { DownloadKey, UploadKey } from '../../lib/http/endpoints';
import type { ViewName } from '../../config/views';

/**
 * A paged inquiry body as every list endpoint takes it (docs/API.md, Paging). A list with sort keys also
 * takes `sort` (SortRequest), which the block adds when a sortable column is clicked.
 */
export interface PagedArg {
  size: number;
  current: number;
  /** The previous page's last row id, when the pager stepped one page on (see use-inquire). */
  after?: number;
  params?: object;
}

/** The sort keys of a list endpoint's body, e.g. `SortKeyOf<BodyOf<'/sys/user/inquire'>>`. */
export type SortKeyOf<A> = A extends { sort?: { field: infer F } } ? (F extends string ? F : never) : never;

/**
 * Export of the list as shown (filters, fixed params and sort) to a file. The button shows only
 * when the signed-in role holds the menu's `resource` (default `api_export`).
 */
export interface ExportConfig {
  endpoint: DownloadKey;
  /** The saved file's name when the server gives none, e.g. 用户列表.xlsx. */
  fileName: string;
  resource?: string;
}

/**
 * Import of records from an .xlsx file: template download, preview, apply (ImportDialog). The
 * button shows only when the role holds the menu's `resource` (default `api_import`).
 */
export interface ImportConfig {
  upload: UploadKey;
  template: DownloadKey;
  /** The template's file name when the server gives none. */
  templateName: string;
  /** The column that finds an existing record, e.g. 用户名. */
  keyLabel: string;
  /** What a new record is issued once, e.g. 初始密码 / 设备密钥. */
  secretLabel: string;
  /** Lists to reload after an apply. */
  invalidates: TagType[];
  resource?: string;
}

/** Form values as antd holds them: keyed by field name, converted by `toForm` / `fromForm`. */
export type FormValues = Record<string, unknown>;

/** A row the block can edit: an id, and a version for optimistic locking. */
export interface EditableRow {
  id: number;
  version: number;
}

/** What an RTK Query `useXxxQuery` hook of a paged endpoint offers the block. */
/** `currentData` is the answer to this very `arg` (undefined while it loads); `data` may be an earlier one's. */
export type PagedQueryHook<A extends PagedArg, Row> = (
  arg: A,
  options?: { skip?: boolean },
) => { data?: Paged<Row>; currentData?: Paged<Row>; isFetching: boolean; refetch: () => unknown };

/** What an RTK Query `useXxxMutation` hook offers the block. */
export type MutationHook<Body, Data> = () => readonly [(body: Body) => { unwrap(): Promise<Envelope<Data>> }, { isLoading: boolean }];

export interface SelectOption {
  value: string | number;
  label: string;
}

/** A time range filter's value: start and end in epoch milliseconds, either open (null). */
export type TimeRange = [number | null, number | null];

export type FieldKind = 'text' | 'password' | 'number' | 'select' | 'switch' | 'textarea' | 'timeRange';

export interface FieldConfig {
  name: string;
  label: string;
  kind: FieldKind;
  required?: boolean;
  /** Text: the contract's maxLength / minLength; number: the contract's range. */
  max?: number;
  min?: number;
  pattern?: { regex: RegExp; message: string };
  /** The menu dictionary field feeding a select's options and a switch's two labels. */
  dict?: string;
  /** The stored value is a number (a select's dictionary values arrive as strings). */
  numeric?: boolean;
  /** Options that come from data other than the menu dictionary (e.g. roles); a React hook. */
  useOptions?: () => SelectOption[];
  /** A screen's own input (e.g. a tree select) in place of the kind's; `kind` still words the rules. */
  control?: ComponentType<CustomControlProps>;
  /** Rules beyond the simple limits, e.g. one that depends on another field's value. */
  rules?: FormRule[];
  /** Fields whose change re-checks this field's rules. */
  dependencies?: string[];
  /** A form select that may be emptied (filters always may). */
  allowClear?: boolean;
  /** A switch's labels when the dictionary has none: [on, off]. */
  switchLabels?: readonly [string, string];
  /** Shown only in the add dialog or only in the edit dialog. */
  only?: 'create' | 'edit';
  /** A hint under the input, e.g. 留空则保留原密钥. */
  extra?: string;
  /**
   * A dialog field shown only while another field holds one of these values (e.g. the SMTP settings
   * of an e-mail channel); a hidden field is left out of the body.
   */
  shownWhen?: { field: string; values: readonly (string | number)[] };
  /**
   * A time range filter (kind 'timeRange') is sent as two params, its start and its end in epoch
   * milliseconds, e.g. ['from', 'to']; either may be left open.
   */
  range?: readonly [string, string];
  placeholder?: string;
  /**
   * The resource (under the screen's menu) guarding a read the input makes itself, e.g. the location
   * tree of a location picker: without it the field is not offered, instead of a refusal on opening.
   */
  resource?: string;
}

/**
 * A table column: antd's own column, plus `dict` to show the dictionary label of the value,
 * `relativeTime` to show an epoch-ms time as recency (3 分钟前) with the exact time on hover,
 * `sortKey` to make it sortable by the server under that key (one of the list's sort keys, S), and
 * `nowrap` to keep the cell and its title on one line (times and short names; long text wraps
 * instead, or is cut by `ellipsis` with the whole text on hover). `dict` and `relativeTime` columns
 * are `nowrap` unless they set it false.
 */
export type ColumnConfig<Row, S extends string = string> = TableColumnType<Row> & {
  dataIndex?: keyof Row & string;
  dict?: string;
  relativeTime?: boolean;
  sortKey?: S;
  nowrap?: boolean;
};

/** The handles a screen's row actions and toolbar get from the block. */
export interface ListScreenActions<Row> {
  openAdd: () => void;
  openEdit: (row: Row) => void;
  /** Saves an edit without the dialog (e.g. a 启用/禁用 toggle): the row's form values plus `changes`. */
  quickEdit: (row: Row, changes: FormValues) => Promise<void>;
  /** The params of the list as last sent (filters and fixed params), e.g. for an export of it. */
  params: FormValues;
}

/** A read-only side panel for one row, opened by the 详情 row action. */
export interface DetailConfig<Row> {
  title: (row: Row) => string;
  /** The drawer's content; a component, so it may run its own queries (e.g. a detail call). */
  render: (row: Row) => ReactNode;
  /** Drawer width in pixels (default 720). */
  width?: number;
  /** The resource type guarding the drawer's reads (e.g. api_detail): 详情 shows only with it. */
  resource: string;
}

export interface SaveConfig<Body, Data> {
  useMutation: MutationHook<Body, Data>;
  /** The resource type guarding the save's endpoint (default api_creation / api_edit): 新增 / 编辑 show only with it. */
  resource?: string;
  /** The success toast; the server msg when absent (docs/client.md, Toasts). */
  successMsg?: (envelope: Envelope<Data>, values: FormValues) => string;
  /** After the success toast, the dialog closed and the form reset (e.g. to show a device key once). */
  onSuccess?: (envelope: Envelope<Data>) => void;
}

/** What a field's own input gets from its Form.Item. */
export interface CustomControlProps {
  /** Links the label to the input. */
  id?: string;
  value?: unknown;
  onChange?: (value: unknown) => void;
}

/** One batch action: its button, the question before it runs, and its request body. */
export interface BatchAction<Body> {
  label: string;
  /** The question asked before it runs, e.g. 确定禁用所选的 3 个用户？ */
  confirm: (count: number) => string;
  /** An optional note the person may write (its label and length limit), handed to `body`. */
  note?: { label: string; max: number };
  body: (ids: number[], note: string) => Body;
  danger?: boolean;
}

/**
 * Multi-select and batch actions on a list: one batch endpoint (its mutation) with one or more
 * actions (e.g. 批量启用 / 批量禁用 on the same endpoint). The selection and the buttons show
 * only when the role holds `resource` (the batch endpoint's and the single action's types).
 */
export interface BatchConfig<Row, Body, Data> {
  resource: string | readonly string[];
  useMutation: MutationHook<Body, Data>;
  actions: BatchAction<Body>[];
  /** Rows that cannot take any of the actions (e.g. an alarm already cleared) cannot be ticked. */
  selectable?: (row: Row) => boolean;
}

/** Without `create` there is no 新增, without `edit` no 编辑: a read-only list (e.g. a log). */
export interface ListScreenProps<A extends PagedArg, Row extends object, CreateBody, CreateData, EditBody, EditData, BatchBody = never, BatchData = unknown> {
  /** The menu element of the screen (e.g. 'sys/user'): finds its menu dictionary. */
  view: ViewName;
  /** Dialog titles name the thing: 新增{noun} / 编辑{noun}. */
  noun: string;
  useInquire: PagedQueryHook<A, Row>;
  /** The field identifying a row (default 'id'). */
  rowKey?: keyof Row & string;
  /** Rows that unfold to show more under them (antd's expandable rows, e.g. an alarm's symptoms). */
  expandable?: TableProps<Row>['expandable'];
  pageSize?: number;
  /** Params every request carries (e.g. the menuId of a menu's resources); keep it memoised. */
  fixedParams?: Partial<NonNullable<A['params']>>;
  filters?: FieldConfig[];
  columns: ColumnConfig<Row>[];
  /** The table's least width in pixels: a narrower screen scrolls it sideways instead of squeezing its columns together. */
  minWidth?: number;
  /** The add and edit dialogs' fields. */
  fields?: FieldConfig[];
  /** Initial values of the add form. */
  createDefaults?: FormValues;
  /** Record -> edit form values; the record's own fields when absent. */
  toForm?: (row: Row) => FormValues;
  /**
   * The request body is the dialog's own fields, plus the row's id and version on edit (optimistic
   * locking, docs/API.md, Edits); these hooks convert it further (e.g. join two fields into one).
   */
  fromForm?: {
    create?: (values: FormValues) => CreateBody;
    edit?: (values: FormValues, row: Row) => EditBody;
  };
  create?: SaveConfig<CreateBody, CreateData>;
  /** Only rows with an id and a version can be edited (optimistic locking, docs/API.md, Edits). */
  edit?: Row extends EditableRow ? SaveConfig<EditBody, EditData> : never;
  detail?: DetailConfig<Row>;
  rowActions?: (row: Row, actions: ListScreenActions<Row>) => ReactNode;
  toolbar?: (actions: ListScreenActions<Row>) => ReactNode;
  /** An 导出 button exporting the list as filtered and sorted. */
  exportTo?: ExportConfig;
  /** An 导入 button opening the import dialog. */
  importFrom?: ImportConfig;
  /** Tick boxes on the rows and the batch buttons; only rows with a numeric `id` can be batched. */
  batch?: Row extends { id: number } ? BatchConfig<Row, BatchBody, BatchData> : never;
}
