/**
 * 组织管理 (sys/org): the organisation tree as a tree table (group -> region -> hotel ->
 * department) within the caller's scope. 新增下级 under a unit, 编辑 a unit (and move it by its
 * parent), 删除 an empty unit: the server refuses a unit that still holds units, users, buildings or
 * devices, and its Chinese reason is the toast. Actions the role does not hold are not offered.
 */
import { Button, Card, Empty, Popconfirm, Space, Spin, Table, type TableColumnsType } from 'antd';
import { useMemo, useState, type Key } from 'react';

import type { OrgKind } from '../../../../contract/constants';
import { RecordDialog, useGranted, useMenuDict, type FormValues } from '../../../components/list-screen';
import { buildOrgTree, OrgKindTag, useOrgTreeQuery, type OrgNode, type OrgRow } from '../../../components/org-tree';
import { toast } from '../../../lib/toast';
import { useCreateOrgMutation, useEditOrgMutation, useRemoveOrgMutation } from './api';
import { childDefaults, editValues, orgFields } from './config';

const VIEW = 'sys/org';

type UnitRow = OrgRow & { children?: UnitRow[] };
type Editing = { mode: 'create'; parent: OrgRow } | { mode: 'edit'; unit: OrgRow };

// A leaf has no `children`, so the table draws no expander for it.
const toRow = ({ unit, children }: OrgNode): UnitRow => (children.length === 0 ? unit : { ...unit, children: children.map(toRow) });

/** Until the user folds or unfolds, the group and its regions are open, so every hotel shows. */
function openByDefault(nodes: OrgNode[]): Key[] {
  return nodes.flatMap((node) => (node.unit.kind === 'group' || node.unit.kind === 'region' ? [node.unit.id, ...openByDefault(node.children)] : []));
}

export default function SysOrgScreen() {
  const { data, isFetching } = useOrgTreeQuery(VIEW);
  const dict = useMenuDict(VIEW);
  const [createOrg, createState] = useCreateOrgMutation();
  const [editOrg, editState] = useEditOrgMutation();
  const [removeOrg] = useRemoveOrgMutation();
  const mayCreate = useGranted(VIEW, 'api_creation');
  const mayEdit = useGranted(VIEW, 'api_edit');
  const mayRemove = useGranted(VIEW, 'api_removal');
  const [editing, setEditing] = useState<Editing | null>(null);
  const [expanded, setExpanded] = useState<readonly Key[] | null>(null);

  const roots = useMemo(() => buildOrgTree(data ?? []), [data]);
  const rows = useMemo(() => roots.map(toRow), [roots]);
  const expandedKeys = expanded ?? openByDefault(roots);

  const save = async (values: FormValues): Promise<boolean> => {
    if (!editing) return false;
    const fields = {
      name: String(values.name).trim(),
      kind: values.kind as OrgKind,
      code: String(values.code).trim(),
      state: Number(values.state),
      sort: Number(values.sort),
      remark: typeof values.remark === 'string' ? values.remark : '',
    };
    const request =
      editing.mode === 'create'
        ? createOrg({ ...fields, pid: Number(values.pid) })
        : editOrg({ ...fields, id: editing.unit.id, version: editing.unit.version, pid: editing.unit.pid === null ? null : Number(values.pid) });
    // A refusal (a taken code, a parent out of scope, a stale edit) is toasted by the base query; the dialog stays open.
    const envelope = await request.unwrap().catch(() => null);
    if (!envelope) return false;
    toast.success(envelope.msg);
    if (editing.mode === 'create' && !expandedKeys.includes(editing.parent.id)) setExpanded([...expandedKeys, editing.parent.id]);
    return true;
  };

  const remove = async (unit: OrgRow) => {
    // A unit that is not empty is refused with the server's reason (toasted by the base query).
    const envelope = await removeOrg({ id: unit.id })
      .unwrap()
      .catch(() => null);
    if (envelope) toast.success(envelope.msg);
  };

  const columns: TableColumnsType<UnitRow> = [
    { title: '单位名称', dataIndex: 'name', key: 'name' },
    { title: '类型', dataIndex: 'kind', key: 'kind', width: 90, render: (kind: string) => <OrgKindTag kind={kind} /> },
    // On a phone the name, kind, state and actions fit; code, sort and remark show from md up.
    { title: '编码', dataIndex: 'code', key: 'code', width: 140, responsive: ['md'] },
    { title: '状态', dataIndex: 'state', key: 'state', width: 80, render: (state: number) => dict.labelOf('state', state) },
    { title: '排序', dataIndex: 'sort', key: 'sort', width: 70, responsive: ['md'] },
    { title: '备注', dataIndex: 'remark', key: 'remark', ellipsis: true, responsive: ['md'] },
  ];
  if (mayCreate || mayEdit || mayRemove) {
    columns.push({
      title: '操作',
      key: 'actions',
      width: 220,
      render: (_value, unit) => (
        <Space size="small" wrap>
          {mayCreate && (
            <Button type="link" size="small" onClick={() => setEditing({ mode: 'create', parent: unit })}>
              新增下级
            </Button>
          )}
          {mayEdit && (
            <Button type="link" size="small" onClick={() => setEditing({ mode: 'edit', unit })}>
              编辑
            </Button>
          )}
          {mayRemove && unit.pid !== null && (
            <Popconfirm title={`确定删除单位「${unit.name}」？`} onConfirm={() => void remove(unit)}>
              <Button type="link" size="small" danger>
                删除
              </Button>
            </Popconfirm>
          )}
        </Space>
      ),
    });
  }

  const dialogTitle = !editing ? '' : editing.mode === 'create' ? `新增下级单位：${editing.parent.name}` : `编辑单位：${editing.unit.name}`;
  return (
    <Card>
      <Spin spinning={isFetching}>
        {rows.length === 0 && !isFetching ? (
          <Empty description="没有可查看的单位" />
        ) : (
          <Table<UnitRow>
            rowKey="id"
            size="middle"
            columns={columns}
            dataSource={rows}
            pagination={false}
            scroll={{ x: 'max-content' }}
            expandable={{ expandedRowKeys: expandedKeys, onExpandedRowsChange: (keys) => setExpanded(keys) }}
          />
        )}
      </Spin>
      <RecordDialog
        title={dialogTitle}
        open={editing !== null}
        saving={createState.isLoading || editState.isLoading}
        fields={orgFields(editing?.mode === 'create' || (editing?.mode === 'edit' && editing.unit.pid !== null))}
        initialValues={!editing ? {} : editing.mode === 'create' ? childDefaults(editing.parent) : editValues(editing.unit)}
        onSave={save}
        onClose={() => setEditing(null)}
      />
    </Card>
  );
}
