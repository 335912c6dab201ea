/**
 * What the first start puts in an empty database: the two areas of SPEC 1 with one child menu per
 * screen, each menu's resources (its API paths and its dictionary-driven fields), and the
 * dictionaries those fields use, and the default housekeeping schedules. Resource paths must match
 * the routes registered under /api.
 */
import type { TaskName } from '../../contract/sys/schedule';

export interface SeedResource {
  name: string;
  type: string;
  path?: string;
}
export interface SeedMenu {
  name: string;
  path: string;
  element: string;
  icon: string;
  resources: SeedResource[];
  /** This menu's dictionary-driven form fields: field -> the dictionary code feeding it. */
  fields?: Record<string, string>;
}
export interface SeedArea {
  name: string;
  path: string;
  icon: string;
  children: SeedMenu[];
}

const api = (name: string, type: string, path: string): SeedResource => ({ name, type: `api_${type}`, path });

export const seedAreas: SeedArea[] = [
  {
    name: '系统管理',
    path: '/sys',
    icon: 'SettingOutlined',
    children: [
      {
        name: '控制台',
        path: '/sys/panel',
        element: 'sys/panel',
        icon: 'DashboardOutlined',
        resources: [api('控制台统计', 'inquire', '/sys/panel/inquire')],
      },
      {
        name: '用户管理',
        path: '/sys/user',
        element: 'sys/user',
        icon: 'UserOutlined',
        resources: [
          api('查询用户', 'inquire', '/sys/user/inquire'),
          api('新增用户', 'creation', '/sys/user/creation'),
          api('编辑用户', 'edit', '/sys/user/edit'),
          api('用户详情', 'detail', '/sys/user/detail'),
          api('重置密码', 'passwordReset', '/sys/user/password/reset'),
        ],
        fields: { state: 'common_state' },
      },
      {
        name: '角色管理',
        path: '/sys/role',
        element: 'sys/role',
        icon: 'TeamOutlined',
        resources: [
          api('查询角色', 'inquire', '/sys/role/inquire'),
          api('新增角色', 'creation', '/sys/role/creation'),
          api('编辑角色', 'edit', '/sys/role/edit'),
          api('菜单资源列表', 'menuResources', '/sys/menu/resources'),
          api('角色授权', 'auth', '/sys/role/auth'),
          api('角色用户', 'users', '/sys/role/user/inquire'),
          api('绑定用户', 'bindUser', '/sys/role/bind/user'),
          api('解绑用户', 'unbindUser', '/sys/role/unbind/user'),
        ],
        fields: { state: 'common_state' },
      },
      {
        name: '菜单管理',
        path: '/sys/menu',
        element: 'sys/menu',
        icon: 'MenuOutlined',
        resources: [
          api('查询菜单', 'inquire', '/sys/menu/inquire'),
          api('新增菜单', 'creation', '/sys/menu/creation'),
          api('编辑菜单', 'edit', '/sys/menu/edit'),
          api('分页查询资源', 'resourcePage', '/sys/resource/menu/inquire'),
          api('查询菜单资源', 'resourceList', '/sys/resource/inquire'),
          api('新增资源', 'resourceCreation', '/sys/resource/creation'),
          api('编辑资源', 'resourceEdit', '/sys/resource/edit'),
        ],
        fields: { state: 'common_state', isAuth: 'menu_is_auth' },
      },
      {
        name: '数据字典',
        path: '/sys/dict',
        element: 'sys/dict',
        icon: 'BookOutlined',
        resources: [
          api('查询字典', 'inquire', '/sys/dict/inquire'),
          api('新增字典', 'creation', '/sys/dict/creation'),
          api('编辑字典', 'edit', '/sys/dict/edit'),
          api('可绑定资源', 'resources', '/sys/resource/inquires'),
          api('绑定资源', 'bind', '/sys/dict/bind'),
          api('解绑资源', 'unbind', '/sys/dict/unbind'),
        ],
        fields: { state: 'common_state' },
      },
      {
        name: '定时任务',
        path: '/sys/schedule',
        element: 'sys/schedule',
        icon: 'ClockCircleOutlined',
        resources: [
          api('查询任务', 'inquire', '/sys/schedule/inquire'),
          api('新增任务', 'creation', '/sys/schedule/creation'),
          api('编辑任务', 'edit', '/sys/schedule/edit'),
          api('立即执行', 'run', '/sys/schedule/run'),
          api('运行日志', 'log', '/sys/schedule/log'),
          api('任务类型', 'tasks', '/sys/schedule/tasks'),
          api('预览执行时间', 'preview', '/sys/schedule/preview'),
        ],
        fields: { state: 'schedule_state', lastOutcome: 'schedule_outcome' },
      },
    ],
  },
  {
    name: '酒店管理',
    path: '/hotel',
    icon: 'ShopOutlined',
    children: [
      {
        name: '设备管理',
        path: '/hotel/device',
        element: 'hotel/device',
        icon: 'ApiOutlined',
        resources: [
          api('查询设备', 'inquire', '/hotel/device/inquire'),
          api('新增设备', 'creation', '/hotel/device/creation'),
          api('编辑设备', 'edit', '/hotel/device/edit'),
          api('重置设备密钥', 'keyReset', '/hotel/device/key/reset'),
        ],
        fields: { type: 'device_type', state: 'common_state', online: 'device_online' },
      },
      {
        name: '高级设置',
        path: '/hotel/advanced',
        element: 'hotel/advanced',
        icon: 'ControlOutlined',
        resources: [
          api('查询配置', 'inquire', '/hotel/advanced/inquire'),
          api('新增配置', 'creation', '/hotel/advanced/creation'),
          api('编辑配置', 'edit', '/hotel/advanced/edit'),
          api('初始化', 'init', '/hotel/advanced/jd/edit'),
        ],
        fields: { state: 'common_state' },
      },
    ],
  },
];

export const seedDictionaries: Record<string, Array<{ label: string; value: string }>> = {
  common_state: [
    { label: '启用', value: '1' },
    { label: '禁用', value: '0' },
  ],
  menu_is_auth: [
    { label: '需要授权', value: '1' },
    { label: '公开', value: '0' },
  ],
  schedule_state: [
    { label: '运行中', value: '1' },
    { label: '已暂停', value: '0' },
  ],
  schedule_outcome: [
    { label: '执行中', value: 'running' },
    { label: '成功', value: 'success' },
    { label: '失败', value: 'failed' },
  ],
  device_type: [
    { label: '智能门锁', value: 'lock' },
    { label: '空调控制器', value: 'aircon' },
    { label: '客控面板', value: 'panel' },
    { label: '网关', value: 'gateway' },
    { label: '电视', value: 'tv' },
  ],
  device_online: [
    { label: '在线', value: '1' },
    { label: '离线', value: '0' },
  ],
};

export interface SeedSchedule {
  name: string;
  cron: string;
  task: TaskName;
  params: Record<string, unknown>;
  remark: string;
}

/** The housekeeping a hotel expects from day one; all three run in Asia/Shanghai time. */
export const seedSchedules: SeedSchedule[] = [
  { name: '设备离线检测', cron: '* * * * *', task: 'device.offlineSweep', params: { minutes: 5 }, remark: '每分钟把 5 分钟没有心跳的设备标记为离线' },
  { name: '清理过期会话', cron: '0 3 * * *', task: 'session.purgeExpired', params: {}, remark: '每天 03:00 删除过期或已撤销的会话' },
  { name: '清理任务日志', cron: '0 4 * * *', task: 'schedule.pruneLogs', params: { days: 30 }, remark: '每天 04:00 删除 30 天前的运行日志' },
];

/** What staff read for a field resource in the grant and binding dialogs. */
export const fieldLabels: Record<string, string> = {
  state: '状态',
  isAuth: '是否需要授权',
  lastOutcome: '最近运行结果',
  type: '设备类型',
  online: '在线状态',
};

export const ADMIN_ROLE_NAME = '超级管理员';
export const ADMIN_USER_NAME = 'admin';
export const ADMIN_NICK_NAME = '系统管理员';
