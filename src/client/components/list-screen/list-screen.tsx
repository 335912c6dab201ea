/**
 * A whole list screen from its configuration: filters, table, pager, add and edit dialogs, a detail
 * drawer, export and import. A list configured without add or edit is read-only (e.g. a log).
 */
import { PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { Button, Card, Space } from 'antd';
import { lazy, Suspense, useMemo, useState } from 'react';

import type { Envelope, FieldError } from '../../../contract/constants';
import { toast } from '../../lib/toast';
import { ExportButton } from './export-button';
import { fieldErrorsOf } from './field-errors';
import { FilterForm } from './filter-form';
import { useGrantLookup, useGranted } from './menu-grants';
import { MenuDictContext, useMenuDict } from './menu-dict';
import { PagedTable } from './paged-table';
import { RecordDialog } from './record-dialog';
import { BatchToolbar } from './batch-toolbar';
import { actionColumnWidth, actionItems, RowActions } from './row-actions';
import type { BatchConfig, ColumnConfig, EditableRow, FieldConfig, FormValues, ListScreenActions, ListScreenProps, MutationHook, PagedArg, SaveConfig } from './types';
import { useInquire } from './use-inquire';
import { useInitialUrlFilters, useUrlFilters } from './url-filters';

const NO_DEFAULTS: FormValues = {};
const NO_FIELDS: FieldConfig[] = [];
const DETAIL_WIDTH = 720;
const CREATE_RESOURCE = 'api_creation';
const EDIT_RESOURCE = 'api_edit';
const IMPORT_RESOURCE = 'api_import';
const NOTHING: readonly string[] = [];

/** The resource a configured control needs; none for a control the screen leaves out. */
const guardOf = (config: { resource?: string } | undefined, fallback: string): string | readonly string[] => (config ? (config.resource ?? fallback) : NOTHING);
const DetailDrawer = lazy(() => import('./detail-drawer'));

/**
 * Stands in for the mutation of a list without add or edit: whether a screen has one never changes,
 * so the hooks still run in the same order on every render.
 */
const NO_MUTATION = [() => ({ unwrap: () => Promise.reject(new Error('not configured')) }), { isLoading: false }] as const;
function useNoMutation<Body, Data>(): ReturnType<MutationHook<Body, Data>> {
  return NO_MUTATION;
}

// The import dialog (upload, preview tables) loads only when someone opens it.
const ImportDialog = lazy(() => import(/* webpackChunkName: "list-import" */ './import-dialog'));

/** The record's own fields, for screens whose form mirrors the record. */
const recordAsForm = (row: object): FormValues => ({ ...row });

function fieldsFor(fields: FieldConfig[], mode: 'create' | 'edit'): FieldConfig[] {
  return fields.filter((field) => field.only === undefined || field.only === mode);
}

/** Runs a save and its success toast; when the server refused (already toasted), the refused fields. */
async function save<Body, Data>(
  trigger: (body: Body) => { unwrap(): Promise<Envelope<Data>> },
  config: SaveConfig<Body, Data>,
  body: Body,
  values: FormValues,
): Promise<true | FieldError[]> {
  let envelope: Envelope<Data>;
  try {
    envelope = await trigger(body).unwrap();
  } catch (error) {
    return fieldErrorsOf(error);
  }
  toast.success(config.successMsg ? config.successMsg(envelope, values) : envelope.msg);
  config.onSuccess?.(envelope);
  return true;
}

/** Only the dialog's own fields travel: the server rejects unknown keys (docs/API.md, Calls). */
function pick(values: FormValues, fields: FieldConfig[]): FormValues {
  return Object.fromEntries(fields.filter((field) => field.name in values).map((field) => [field.name, values[field.name]]));
}

export function ListScreen<A extends PagedArg, Row extends object, CreateBody, CreateData, EditBody, EditData, BatchBody = never, BatchData = unknown>(
  props: ListScreenProps<A, Row, CreateBody, CreateData, EditBody, EditData, BatchBody, BatchData>,
) {
  const { view, noun, useInquire: useQuery, rowKey, expandable, pageSize, filters, columns, fields = NO_FIELDS, createDefaults = NO_DEFAULTS } = props;
  const { create, edit, detail, rowActions, toolbar, exportTo, importFrom } = props;
  const batch = props.batch as BatchConfig<Row, BatchBody, BatchData> | undefined;
  const createFields = fieldsFor(fields, 'create');
  const editFields = fieldsFor(fields, 'edit');
  const toForm = props.toForm ?? recordAsForm;
  const { create: convertCreate, edit: convertEdit } = props.fromForm ?? {};
  const fromCreateForm = (values: FormValues): CreateBody => {
    const body = pick(values, createFields);
    return convertCreate ? convertCreate(body) : (body as CreateBody);
  };
  const fromEditForm = (values: FormValues, row: Row): EditBody => {
    // `edit` is only accepted for rows with an id and a version (see ListScreenProps).
    const { id, version } = row as Row & EditableRow;
    const body = { ...pick(values, editFields), id, version };
    return convertEdit ? convertEdit(body, row) : (body as EditBody);
  };

  const dict = useMenuDict(view);
  const granted = useGrantLookup();
  // Kept while the grants stay: the filter form re-reads its values when its fields change.
  const filterFields = useMemo(() => (filters ?? NO_FIELDS).filter((field) => field.resource === undefined || granted(view, field.resource)), [filters, granted, view]);
  const inquiry = useInquire(useQuery, { pageSize, fixedParams: props.fixedParams, initialFilters: useInitialUrlFilters(filterFields) });
  useUrlFilters(filterFields, inquiry.filters, inquiry.search);
  const [createTrigger, createState] = (create?.useMutation ?? useNoMutation<CreateBody, CreateData>)();
  const [editTrigger, editState] = (edit?.useMutation ?? useNoMutation<EditBody, EditData>)();
  const [addOpen, setAddOpen] = useState(false);
  const [editing, setEditing] = useState<Row | null>(null);
  const [viewing, setViewing] = useState<Row | null>(null);
  const [importing, setImporting] = useState(false);
  // Add, edit, 详情 and 导入 show only with the resource guarding their endpoint (docs/client.md,
  // Controls by grant); a control the screen does not configure asks about nothing.
  const mayImport = useGranted(view, guardOf(importFrom, IMPORT_RESOURCE)) && importFrom !== undefined;
  const mayCreate = useGranted(view, guardOf(create, CREATE_RESOURCE)) && create !== undefined;
  const mayEdit = useGranted(view, guardOf(edit, EDIT_RESOURCE)) && edit !== undefined;
  const mayView = useGranted(view, guardOf(detail, '')) && detail !== undefined;
  const mayBatch = useGranted(view, batch?.resource ?? NOTHING) && batch !== undefined;
  // Ticked rows by id; a page change or a reload keeps them, a batch that ran clears them.
  const [selected, setSelected] = useState<number[]>([]);

  const saveEdit = (row: Row, values: FormValues) => (edit ? save(editTrigger, edit, fromEditForm(values, row), values) : Promise.resolve(false));

  const actions: ListScreenActions<Row> = {
    openAdd: () => setAddOpen(true),
    openEdit: (row) => setEditing(row),
    quickEdit: async (row, changes) => {
      await saveEdit(row, { ...toForm(row), ...changes });
    },
    params: inquiry.params,
  };

  const rowActionItems = (row: Row) =>
    actionItems(
      <>
        {mayView && (
          <Button type="link" size="small" onClick={() => setViewing(row)}>
            详情
          </Button>
        )}
        {mayEdit && (
          <Button type="link" size="small" onClick={() => actions.openEdit(row)}>
            编辑
          </Button>
        )}
        {rowActions?.(row, actions)}
      </>,
      granted,
    );
  // A page where the role may do nothing with any row has no 操作 column at all.
  const mostRowActions = Math.max(0, ...(inquiry.data?.records ?? []).map((row) => rowActionItems(row).length));
  const actionColumn: ColumnConfig<Row> = {
    title: '操作',
    key: 'actions',
    width: actionColumnWidth(mostRowActions),
    // A table that scrolls sideways keeps each row's actions in view.
    ...(props.minWidth === undefined ? {} : { fixed: 'right' as const }),
    render: (_value, row) => <RowActions items={rowActionItems(row)} />,
  };
  const tableColumns: ColumnConfig<Row>[] = mostRowActions > 0 ? [...columns, actionColumn] : columns;
  const tools = toolbar?.(actions);

  return (
    <MenuDictContext.Provider value={dict}>
      <Card>
        {filterFields.length > 0 && <FilterForm fields={filterFields} onSearch={inquiry.search} values={inquiry.filters} />}
        {(mayCreate || tools || mayImport || exportTo || mayBatch) && (
          <Space wrap style={{ marginBottom: 16 }}>
            {mayCreate && (
              <Button type="primary" icon={<PlusOutlined />} onClick={actions.openAdd}>
                新增
              </Button>
            )}
            {tools}
            {mayImport && (
              <Button icon={<UploadOutlined />} onClick={() => setImporting(true)}>
                导入
              </Button>
            )}
            {exportTo && <ExportButton view={view} config={exportTo} inquiry={inquiry} />}
            {mayBatch && batch && <BatchToolbar config={batch} ids={selected} onDone={() => setSelected([])} />}
          </Space>
        )}
        <PagedTable
          inquiry={inquiry}
          columns={tableColumns}
          rowKey={rowKey}
          expandable={expandable}
          minWidth={props.minWidth}
          rowSelection={
            mayBatch
              ? {
                  selectedRowKeys: selected,
                  preserveSelectedRowKeys: true,
                  onChange: (keys) => setSelected(keys.map(Number)),
                  getCheckboxProps: (row) => ({ disabled: batch?.selectable ? !batch.selectable(row) : false }),
                }
              : undefined
          }
        />
      </Card>
      {create && (
        <RecordDialog
          title={`新增${noun}`}
          open={addOpen}
          saving={createState.isLoading}
          fields={createFields}
          initialValues={createDefaults}
          onSave={(values) => save(createTrigger, create, fromCreateForm(values), values)}
          onClose={() => setAddOpen(false)}
        />
      )}
      {edit && (
        <RecordDialog
          title={`编辑${noun}`}
          open={editing !== null}
          saving={editState.isLoading}
          fields={editFields}
          initialValues={editing ? toForm(editing) : NO_DEFAULTS}
          onSave={(values) => (editing ? saveEdit(editing, values) : Promise.resolve(false))}
          onClose={() => setEditing(null)}
        />
      )}
      {detail && viewing && (
        <Suspense fallback={null}>
          <DetailDrawer title={detail.title(viewing)} width={detail.width ?? DETAIL_WIDTH} onClose={() => setViewing(null)}>
            {detail.render(viewing)}
          </DetailDrawer>
        </Suspense>
      )}
      {importing && importFrom && (
        <Suspense fallback={null}>
          <ImportDialog noun={noun} config={importFrom} onClose={() => setImporting(false)} />
        </Suspense>
      )}
    </MenuDictContext.Provider>
  );
}
