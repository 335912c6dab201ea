/** A whole list screen from its configuration: filters, table, pager, add and edit dialogs. */
import { PlusOutlined } from '@ant-design/icons';
import { Button, Card, Space, type TableColumnType } from 'antd';
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

/** Screens without a create (or edit) still call the hooks in the same order every render. */
const noMutation = () => [() => ({ unwrap: () => Promise.reject(new Error('no mutation')) }), { isLoading: false }] as const;

export function ListScreen<A extends PagedArg, Row extends EditableRow, CreateBody, CreateData, EditBody, EditData>(
  props: ListScreenProps<A, Row, CreateBody, CreateData, EditBody, EditData>,
) {
  const { view, noun, useInquire: useQuery, pageSize, filters, columns, fields, createDefaults = NO_DEFAULTS } = props;
  const { create, edit, rowActions, toolbar } = props;
  const toForm = props.toForm ?? recordAsForm;
  const fromCreateForm = props.fromForm?.create ?? ((values: FormValues) => values as CreateBody);
  const fromEditForm =
    props.fromForm?.edit ?? ((values: FormValues, row: Row) => ({ ...values, id: row.id, version: row.version }) as EditBody);

  const dict = useMenuDict(view);
  const inquiry = useInquire(useQuery, { pageSize });
  const [createTrigger, createState] = (create?.useMutation ?? noMutation)();
  const [editTrigger, editState] = (edit?.useMutation ?? noMutation)();
  const [addOpen, setAddOpen] = useState(false);
  const [editing, setEditing] = useState<Row | null>(null);

  const saveEdit = (row: Row, values: FormValues) =>
    edit ? save(editTrigger, edit, fromEditForm(values, row), values) : Promise.resolve(false);

  const actions: ListScreenActions<Row> = {
    openAdd: () => setAddOpen(true),
    openEdit: (row) => setEditing(row),
    quickEdit: async (row, changes) => {
      await saveEdit(row, { ...toForm(row), ...changes });
    },
  };

  const tableColumns: ColumnConfig<Row>[] = [...columns];
  if (edit || rowActions) {
    const actionColumn: TableColumnType<Row> = {
      title: '操作',
      key: 'actions',
      render: (_value, row) => (
        <Space size="small" wrap>
          {edit && (
            <Button type="link" size="small" onClick={() => actions.openEdit(row)}>
              编辑
            </Button>
          )}
          {rowActions?.(row, actions)}
        </Space>
      ),
    };
    tableColumns.push(actionColumn);
  }

  return (
    <MenuDictContext.Provider value={dict}>
      <Card>
        {filters && filters.length > 0 && <FilterForm fields={filters} onSearch={inquiry.search} />}
        <Space style={{ marginBottom: 16 }}>
          {create && (
            <Button type="primary" icon={<PlusOutlined />} onClick={actions.openAdd}>
              新增
            </Button>
          )}
          {toolbar?.(actions)}
        </Space>
        <PagedTable inquiry={inquiry} columns={tableColumns} />
      </Card>
      {create && (
        <RecordDialog
          title={`新增${noun}`}
          open={addOpen}
          saving={createState.isLoading}
          fields={fieldsFor(fields, 'create')}
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
          fields={fieldsFor(fields, 'edit')}
          initialValues={editing ? toForm(editing) : NO_DEFAULTS}
          onSave={(values) => (editing ? saveEdit(editing, values) : Promise.resolve(false))}
          onClose={() => setEditing(null)}
        />
      )}
    </MenuDictContext.Provider>
  );
}
