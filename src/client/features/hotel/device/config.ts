/** What the device screen shows and edits (docs/api/hotel.md, Devices); type, state and online labels are dictionary data. */
import type { BodyOf, DataOf } from '../../../../contract';
import type { ColumnConfig, FieldConfig, FormValues, ImportConfig, SortKeyOf } from '../../../components/list-screen';
import { locationTreeSelectFor } from '../../../components/location-tree';

export type DeviceRow = DataOf<'/hotel/device/inquire'>['records'][number];
type DeviceSortKey = SortKeyOf<BodyOf<'/hotel/device/inquire'>>;

/** The device screen's menu element: its grants, its dictionaries, its own pickers. */
export const DEVICE_VIEW = 'hotel/device';

/** The device screen's own 查询位置, as filter and as field. */
const DeviceLocationSelect = locationTreeSelectFor(DEVICE_VIEW);

export const deviceFilters: FieldConfig[] = [
  { name: 'name', label: '设备名称', kind: 'text', max: 32 },
  { name: 'sn', label: '序列号', kind: 'text', max: 64 },
  { name: 'type', label: '设备类型', kind: 'select', dict: 'type' },
  // A building or floor lists every device under it (the server filters by the subtree). Offered
  // to roles that may read the tree: for the others it would only answer 没有权限.
  { name: 'locationId', label: '位置', kind: 'select', control: DeviceLocationSelect, numeric: true, resource: 'api_locationTree' },
  { name: 'state', label: '状态', kind: 'select', dict: 'state', numeric: true },
  { name: 'online', label: '在线', kind: 'select', dict: 'online', numeric: true },
];

export const deviceColumns: ColumnConfig<DeviceRow, DeviceSortKey>[] = [
  { title: '设备名称', dataIndex: 'name', sortKey: 'name' },
  // One line, cut with the whole number on hover (antd gives an ellipsis cell its text as title).
  { title: '序列号', dataIndex: 'sn', sortKey: 'sn', width: 150, ellipsis: true },
  { title: '设备类型', dataIndex: 'type', dict: 'type', sortKey: 'type' },
  { title: '位置', dataIndex: 'locationPath' },
  { title: '状态', dataIndex: 'state', dict: 'state', sortKey: 'state' },
  { title: '在线', dataIndex: 'online', dict: 'online', sortKey: 'online' },
  { title: '最后上报', dataIndex: 'lastSeenAt', sortKey: 'lastSeenAt', relativeTime: true },
  { title: '备注', dataIndex: 'remark', ellipsis: true },
];

export const deviceFields: FieldConfig[] = [
  { name: 'name', label: '设备名称', kind: 'text', required: true, max: 32 },
  {
    name: 'sn',
    label: '序列号',
    kind: 'text',
    required: true,
    max: 64,
    pattern: { regex: /^[A-Za-z0-9_-]{4,64}$/, message: '序列号只能包含字母、数字、_ 和 -，长度 4-64' },
  },
  { name: 'type', label: '设备类型', kind: 'select', dict: 'type', required: true },
  { name: 'locationId', label: '位置', kind: 'select', control: DeviceLocationSelect, numeric: true },
  { name: 'state', label: '状态', kind: 'switch', dict: 'state' },
  { name: 'remark', label: '备注', kind: 'textarea', max: 200 },
];

export const deviceCreateDefaults: FormValues = { state: 1, remark: '' };

/** Each new device gets its own key, shown once after the import (as after 新增). */
export const deviceImport: ImportConfig = {
  upload: '/hotel/device/import',
  template: '/hotel/device/import/template',
  templateName: '设备导入模板.xlsx',
  keyLabel: '序列号',
  secretLabel: '设备密钥',
  invalidates: ['Device'],
};
