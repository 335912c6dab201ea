/** A whole list screen from its configuration: filters, table, pager, add and edit dialogs. */
import { PlusOutlined } from '@ant-design/icons';
import { Button, Card, Space } from 'antd';
import { useState } from 'react';

import type { Envelope } from '../../../contract/constants';
import { toast } from '../../lib/toast';
import { FilterForm } from './FilterForm';
import { MenuDictContext, useMenuDict } from './menu-dict';
import { PagedTable } from './PagedTable';
import { RecordDialog } from './RecordDialog';
import type { ColumnConfig, EditableRow, FieldConfig, FormValues, ListScreenActions, ListScreenProps, PagedArg, SaveConfig } from './types';
import { useInquire } from './use-inquire';

const NO_DEFAULTS: FormValues = {};

/** The record's own fields, for screens whose form mirrors the record. */
const recordAsForm = (row: object): FormValues => ({ ...row });

function fieldsFor(fields: FieldConfig[], mode: 'create' | 'edit'): FieldConfig[] {
  return fields.filter((field) => field.only === undefined || field.only === mode);
}

/** Runs a save and its success toast; false when the server refused (already toasted). */
async function save<Body, Data>(
  trigger: (body: Body) => { unwrap(): Promise<Envelope<Data>> },
  config: SaveConfig<Body, Data>,
  body: Body,
  values: FormValues,
): Promise<boolean> {
  let envelope: Envelope<Data>;
  try {
    envelope = await trigger(body).unwrap();
  } catch {
    return false;
  }
  toast.success(config.successMsg ? config.successMsg(envelope, values) : envelope.msg);
  config.onSuccess?.(envelope);
  return true;
}

/** Only the dialog's own fields travel: the server rejects unknown keys (DESIGN 2). */
function pick(values: FormValues, fields: FieldConfig[]): FormValues {
  return Object.fromEntries(fields.filter((field) => field.name in values).map((field) => [field.name, values[field.name]]));
}

export function ListScreen<A extends PagedArg, Row extends EditableRow, CreateBody, CreateData, EditBody, EditData>(
  props: ListScreenProps<A, Row, CreateBody, CreateData, EditBody, EditData>,
) {
  const { view, noun, useInquire: useQuery, pageSize, filters, columns, fields, createDefaults = NO_DEFAULTS } = props;
  const { create, edit, rowActions, toolbar } = props;
  const createFields = fieldsFor(fields, 'create');
  const editFields = fieldsFor(fields, 'edit');
  const toForm = props.toForm ?? recordAsForm;
  const { create: convertCreate, edit: convertEdit } = props.fromForm ?? {};
  const fromCreateForm = (values: FormValues): CreateBody => {
    const body = pick(values, createFields);
    return convertCreate ? convertCreate(body) : (body as CreateBody);
  };
  const fromEditForm = (values: FormValues, row: Row): EditBody => {
    const body = { ...pick(values, editFields), id: row.id, version: row.version };
    return convertEdit ? convertEdit(body, row) : (body as EditBody);
  };

  const dict = useMenuDict(view);
  const inquiry = useInquire(useQuery, { pageSize, fixedParams: props.fixedParams });
  const [createTrigger, createState] = create.useMutation();
  const [editTrigger, editState] = edit.useMutation();
  const [addOpen, setAddOpen] = useState(false);
  const [editing, setEditing] = useState<Row | null>(null);

  const saveEdit = (row: Row, values: FormValues) => save(editTrigger, edit, fromEditForm(values, row), values);

  const actions: ListScreenActions<Row> = {
    openAdd: () => setAddOpen(true),
    openEdit: (row) => setEditing(row),
    quickEdit: async (row, changes) => {
      await saveEdit(row, { ...toForm(row), ...changes });
    },
  };

  const actionColumn: ColumnConfig<Row> = {
    title: '操作',
    key: 'actions',
    render: (_value, row) => (
      <Space size="small" wrap>
        <Button type="link" size="small" onClick={() => actions.openEdit(row)}>
          编辑
        </Button>
        {rowActions?.(row, actions)}
      </Space>
    ),
  };
  const tableColumns: ColumnConfig<Row>[] = [...columns, actionColumn];

  return (
    <MenuDictContext.Provider value={dict}>
      <Card>
        {filters && filters.length > 0 && <FilterForm fields={filters} onSearch={inquiry.search} />}
        <Space style={{ marginBottom: 16 }}>
          <Button type="primary" icon={<PlusOutlined />} onClick={actions.openAdd}>
            新增
          </Button>
          {toolbar?.(actions)}
        </Space>
        <PagedTable inquiry={inquiry} columns={tableColumns} />
      </Card>
      <RecordDialog
        title={`新增${noun}`}
        open={addOpen}
        saving={createState.isLoading}
        fields={createFields}
        initialValues={createDefaults}
        onSave={(values) => save(createTrigger, create, fromCreateForm(values), values)}
        onClose={() => setAddOpen(false)}
      />
      <RecordDialog
        title={`编辑${noun}`}
        open={editing !== null}
        saving={editState.isLoading}
        fields={editFields}
        initialValues={editing ? toForm(editing) : NO_DEFAULTS}
        onSave={(values) => (editing ? saveEdit(editing, values) : Promise.resolve(false))}
        onClose={() => setEditing(null)}
      />
    </MenuDictContext.Provider>
  );
}
