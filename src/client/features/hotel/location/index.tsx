/**
 * 位置管理 (hotel/location): the building -> floor -> room tree. 新增楼栋 at the top, a floor under a
 * building, a room (or a range of rooms) under a floor; edit a name and sort (optimistic version);
 * delete an empty location. Actions the role does not hold are not offered.
 */
import { PlusOutlined } from '@ant-design/icons';
import { Button, Card, Empty, Popconfirm, Space, Spin, Tag, Tree } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { useMemo, useState, type Key } from 'react';

import { RecordDialog, useGranted, type FormValues } from '../../../components/list-screen';
import { buildTree, useLocationTreeQuery, type LocationNode, type LocationRow } from '../../../components/location-tree';
import { useOrgTreeQuery } from '../../../components/org-tree';
import { toast } from '../../../lib/toast';
import { useCreateLocationMutation, useEditLocationMutation, useRemoveLocationMutation } from './api';
import { buildingHotelField, CHILD_KIND, KIND_COLOR, KIND_LABEL, locationFields, type LocationKind } from './config';
import { RoomBulkDialog } from './room-bulk-dialog';

const VIEW = 'hotel/location';

type Editing = { mode: 'create'; kind: LocationKind; parent: LocationRow | null } | { mode: 'edit'; location: LocationRow };

export default function HotelLocationScreen() {
  const { data, isFetching } = useLocationTreeQuery(VIEW);
  const [createLocation, createState] = useCreateLocationMutation();
  const [editLocation, editState] = useEditLocationMutation();
  const [removeLocation] = useRemoveLocationMutation();
  const mayCreate = useGranted(VIEW, 'api_creation');
  const mayEdit = useGranted(VIEW, 'api_edit');
  const mayBulk = useGranted(VIEW, 'api_roomBulkCreation');
  const mayRemove = useGranted(VIEW, 'api_removal');
  const [editing, setEditing] = useState<Editing | null>(null);
  const [bulkFloor, setBulkFloor] = useState<LocationRow | null>(null);
  // Until the user folds or unfolds, the buildings are open (floors show, rooms stay folded).
  const [expanded, setExpanded] = useState<Key[] | null>(null);

  // With the screen's 可选单位 a new building picks its hotel and buildings name theirs.
  const { granted: withHotels, data: units } = useOrgTreeQuery(VIEW);
  const hotels = useMemo(() => (units ?? []).filter((unit) => unit.kind === 'hotel'), [units]);
  const hotelName = (orgId: number | null) => units?.find((unit) => unit.id === orgId)?.name;

  const roots = useMemo(() => buildTree(data ?? []), [data]);
  const expandedKeys = expanded ?? roots.map((node) => node.location.id);
  const expand = (id: number) => setExpanded(expandedKeys.includes(id) ? expandedKeys : [...expandedKeys, id]);

  const save = async (values: FormValues): Promise<boolean> => {
    if (!editing) return false;
    const name = String(values.name).trim();
    const sort = Number(values.sort);
    const request =
      editing.mode === 'create'
        ? createLocation({ parentId: editing.parent?.id ?? 0, kind: editing.kind, name, sort, ...(values.orgId === undefined ? {} : { orgId: Number(values.orgId) }) })
        : editLocation({ id: editing.location.id, version: editing.location.version, name, sort });
    // A refusal (duplicate name, stale edit) is toasted by the base query; the dialog stays open.
    const envelope = await request.unwrap().catch(() => null);
    if (!envelope) return false;
    toast.success(envelope.msg);
    if (editing.mode === 'create' && editing.parent) expand(editing.parent.id);
    return true;
  };

  const remove = async (location: LocationRow) => {
    const envelope = await removeLocation({ id: location.id })
      .unwrap()
      .catch(() => null);
    if (envelope) toast.success(envelope.msg);
  };

  const nodeTitle = (location: LocationRow) => {
    const kind = location.kind as LocationKind;
    const childKind = CHILD_KIND[kind];
    return (
      <Space size="small">
        <span>{location.name}</span>
        <Tag color={KIND_COLOR[kind]}>{KIND_LABEL[kind]}</Tag>
        {kind === 'building' && hotelName(location.orgId) && <Tag>{hotelName(location.orgId)}</Tag>}
        {mayCreate && childKind && (
          <Button type="link" size="small" onClick={() => setEditing({ mode: 'create', kind: childKind, parent: location })}>
            新增{KIND_LABEL[childKind]}
          </Button>
        )}
        {mayBulk && kind === 'floor' && (
          <Button type="link" size="small" onClick={() => setBulkFloor(location)}>
            批量创建房间
          </Button>
        )}
        {mayEdit && (
          <Button type="link" size="small" onClick={() => setEditing({ mode: 'edit', location })}>
            编辑
          </Button>
        )}
        {mayRemove && (
          <Popconfirm title={`确定删除${KIND_LABEL[kind]}「${location.name}」？`} onConfirm={() => void remove(location)}>
            <Button type="link" size="small" danger>
              删除
            </Button>
          </Popconfirm>
        )}
      </Space>
    );
  };
  const toData = ({ location, children }: LocationNode): DataNode => ({
    key: location.id,
    title: nodeTitle(location),
    isLeaf: children.length === 0,
    children: children.map(toData),
  });

  const dialogTitle = !editing
    ? ''
    : editing.mode === 'create'
      ? `新增${KIND_LABEL[editing.kind]}${editing.parent ? `：${editing.parent.name}` : ''}`
      : `编辑${KIND_LABEL[editing.location.kind as LocationKind]}`;
  const newBuilding = editing?.mode === 'create' && editing.kind === 'building' && withHotels;
  // A caller with one hotel (its manager) finds it chosen.
  const initialValues: FormValues =
    editing?.mode === 'edit' ? { name: editing.location.name, sort: editing.location.sort } : newBuilding && hotels.length === 1 ? { sort: 0, orgId: hotels[0].id } : { sort: 0 };

  return (
    <Card>
      {mayCreate && (
        <Space style={{ marginBottom: 16 }}>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ mode: 'create', kind: 'building', parent: null })}>
            新增楼栋
          </Button>
        </Space>
      )}
      <Spin spinning={isFetching}>
        {roots.length === 0 ? (
          <Empty description="还没有位置，先新增一个楼栋" />
        ) : (
          <Tree blockNode selectable={false} treeData={roots.map(toData)} expandedKeys={expandedKeys} onExpand={(keys) => setExpanded(keys)} />
        )}
      </Spin>
      <RecordDialog
        title={dialogTitle}
        open={editing !== null}
        saving={createState.isLoading || editState.isLoading}
        fields={newBuilding ? [...locationFields, buildingHotelField] : locationFields}
        initialValues={initialValues}
        onSave={save}
        onClose={() => setEditing(null)}
      />
      {bulkFloor && <RoomBulkDialog floor={bulkFloor} onCreated={() => expand(bulkFloor.id)} onClose={() => setBulkFloor(null)} />}
    </Card>
  );
}
