/** The configuration vocabulary of the list-screen block (see index.ts for the whole picture). */
import type { FormRule, TableColumnType } from 'antd';
import type { ComponentType, ReactNode } from 'react';

import type { Envelope, Paged } from '../../../contract/constants';

/** A paged inquiry body as every list endpoint takes it (DESIGN 2). */
export interface PagedArg {
  size: number;
  current: number;
  params?: object;
}

/** Form values as antd holds them: keyed by field name, converted by `toForm` / `fromForm`. */
export type FormValues = Record<string, unknown>;

/** A row the block can edit: an id, and a version for optimistic locking. */
export interface EditableRow {
  id: number;
  version: number;
}

/** What an RTK Query `useXxxQuery` hook of a paged endpoint offers the block. */
export type PagedQueryHook<A extends PagedArg, Row> = (
  arg: A,
  options?: { skip?: boolean },
) => { data?: Paged<Row>; isFetching: boolean };

/** What an RTK Query `useXxxMutation` hook offers the block. */
export type MutationHook<Body, Data> = () => readonly [
  (body: Body) => { unwrap(): Promise<Envelope<Data>> },
  { isLoading: boolean },
];

export interface SelectOption {
  value: string | number;
  label: string;
}

export type FieldKind = 'text' | 'password' | 'number' | 'select' | 'switch' | 'textarea';

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
  placeholder?: string;
}

/** A table column: antd's own column, plus `dict` to show the dictionary label of the value. */
export type ColumnConfig<Row> = TableColumnType<Row> & {
  dataIndex?: keyof Row & string;
  dict?: string;
};

/** The handles a screen's row actions and toolbar get from the block. */
export interface ListScreenActions<Row> {
  openAdd(): void;
  openEdit(row: Row): void;
  /** Saves an edit without the dialog (e.g. a 启用/禁用 toggle): the row's form values plus `changes`. */
  quickEdit(row: Row, changes: FormValues): Promise<void>;
}

export interface SaveConfig<Body, Data> {
  useMutation: MutationHook<Body, Data>;
  /** The success toast; the server msg when absent (SPEC 8). */
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

export interface ListScreenProps<A extends PagedArg, Row extends EditableRow, CreateBody, CreateData, EditBody, EditData> {
  /** The menu element of the screen (e.g. 'sys/user'): finds its menu dictionary. */
  view: string;
  /** Dialog titles name the thing: 新增{noun} / 编辑{noun}. */
  noun: string;
  useInquire: PagedQueryHook<A, Row>;
  pageSize?: number;
  /** Params every request carries (e.g. the menuId of a menu's resources); keep it memoised. */
  fixedParams?: Partial<NonNullable<A['params']>>;
  filters?: FieldConfig[];
  columns: ColumnConfig<Row>[];
  fields: FieldConfig[];
  /** Initial values of the add form. */
  createDefaults?: FormValues;
  /** Record -> edit form values; the record's own fields when absent. */
  toForm?: (row: Row) => FormValues;
  /**
   * The request body is the dialog's own fields, plus the row's id and version on edit (optimistic
   * locking, DESIGN 6); these hooks convert it further (e.g. join two fields into one).
   */
  fromForm?: {
    create?: (values: FormValues) => CreateBody;
    edit?: (values: FormValues, row: Row) => EditBody;
  };
  create: SaveConfig<CreateBody, CreateData>;
  edit: SaveConfig<EditBody, EditData>;
  rowActions?: (row: Row, actions: ListScreenActions<Row>) => ReactNode;
  toolbar?: (actions: ListScreenActions<Row>) => ReactNode;
}
