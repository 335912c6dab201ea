/**
 * What the first start puts in an empty database: the product's areas (系统管理, 酒店管理, 系统监控;
 * docs/architecture.md, built-in catalogue) with one child menu per screen, each menu's resources
 * (its API paths and its dictionary-driven fields), and the dictionaries those fields use, and the
 * default housekeeping schedules. Resource paths must match the routes registered under /api.
 */
import type { TaskName } from '../../../contract/sys/schedule';
import { ALARM_SEVERITIES, ALARM_SEVERITY_LABELS } from '../../../contract/constants';

export interface SeedResource {
  name: string;
  type: string;
  path?: string;
  /**
   * The type of a resource of the same menu whose holders are given this one when it first
   * arrives (an upgrade): what the screen always did keeps working for the roles that had it.
   */
  grantedWith?: string;
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

const api = (name: string, type: string, path: string, grantedWith?: string): SeedResource => ({
  name,
  type: `api_${type}`,
  path,
  ...(grantedWith ? { grantedWith: `api_${grantedWith}` } : {}),
});

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
          api('批量启用/禁用用户', 'batchState', '/sys/user/batch/state'),
          api('用户详情', 'detail', '/sys/user/detail'),
          api('重置密码', 'passwordReset', '/sys/user/password/reset'),
          api('导出用户', 'export', '/sys/user/export'),
          api('导入用户', 'import', '/sys/user/import'),
          api('用户导入模板', 'importTemplate', '/sys/user/import/template'),
          // The user form's role choices, once read through the role screen's list (a user manager
          // without 角色管理 was refused on opening the screen).
          api('可分配角色', 'roleChoices', '/sys/user/role/choices', 'inquire'),
          api('可选单位', 'orgTree', '/sys/user/org/tree', 'inquire'),
        ],
        fields: { state: 'common_state' },
      },
      {
        name: '组织管理',
        path: '/sys/org',
        element: 'sys/org',
        icon: 'ApartmentOutlined',
        resources: [
          api('组织树', 'inquire', '/sys/org/tree'),
          api('新增单位', 'creation', '/sys/org/creation'),
          api('编辑单位', 'edit', '/sys/org/edit'),
          api('删除单位', 'removal', '/sys/org/removal'),
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
          api('可选单位', 'orgTree', '/sys/role/org/tree', 'inquire'),
          api('角色用户', 'users', '/sys/role/user/inquire'),
          api('绑定用户', 'bindUser', '/sys/role/bind/user'),
          api('解绑用户', 'unbindUser', '/sys/role/unbind/user'),
          api('导出角色', 'export', '/sys/role/export'),
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
          api('导出字典', 'export', '/sys/dict/export'),
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
          api('导出任务', 'export', '/sys/schedule/export'),
          api('导出运行日志', 'logExport', '/sys/schedule/log/export'),
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
          api('批量启用/禁用设备', 'batchState', '/hotel/device/batch/state'),
          api('重置设备密钥', 'keyReset', '/hotel/device/key/reset'),
          api('删除设备', 'removal', '/hotel/device/removal'),
          api('重启设备', 'reboot', '/hotel/device/command/reboot'),
          api('导出设备', 'export', '/hotel/device/export'),
          api('导入设备', 'import', '/hotel/device/import'),
          api('设备导入模板', 'importTemplate', '/hotel/device/import/template'),
          // The location filter and picker (the tree itself is 位置管理's list; migration 034).
          api('可选位置', 'locationTree', '/hotel/device/location/tree', 'inquire'),
          api('设备状态记录', 'status', '/hotel/device/status'),
          api('可选单位', 'orgTree', '/hotel/device/org/tree', 'inquire'),
        ],
        fields: { type: 'device_type', state: 'common_state', online: 'device_online' },
      },
      {
        // Migration 012 moves the write resources 008 seeded under 设备管理 here in existing databases.
        name: '位置管理',
        path: '/hotel/location',
        element: 'hotel/location',
        icon: 'HomeOutlined',
        resources: [
          api('查询位置', 'inquire', '/hotel/location/tree'),
          api('新增位置', 'creation', '/hotel/location/creation'),
          api('编辑位置', 'edit', '/hotel/location/edit'),
          api('批量新增房间', 'roomBulkCreation', '/hotel/location/rooms/creation'),
          api('删除位置', 'removal', '/hotel/location/removal'),
          // Whoever adds a building picks its hotel.
          api('可选单位', 'orgTree', '/hotel/location/org/tree', 'creation'),
        ],
      },
      {
        name: '告警管理',
        path: '/hotel/alarm',
        element: 'hotel/alarm',
        icon: 'AlertOutlined',
        resources: [
          api('查询告警', 'inquire', '/hotel/alarm/inquire'),
          api('确认告警', 'acknowledge', '/hotel/alarm/acknowledge'),
          api('批量确认告警', 'batchAcknowledge', '/hotel/alarm/batch/acknowledge'),
          api('清除告警', 'clear', '/hotel/alarm/clear'),
          api('查询超时设置', 'timeouts', '/hotel/alarm/timeout/inquire'),
          api('编辑超时设置', 'timeoutEdit', '/hotel/alarm/timeout/edit'),
        ],
        fields: { severity: 'alarm_severity' },
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
  {
    name: '系统监控',
    path: '/monitor',
    icon: 'SafetyOutlined',
    children: [
      {
        name: '操作日志',
        path: '/monitor/operation',
        element: 'monitor/operation',
        icon: 'FileSearchOutlined',
        resources: [
          api('查询操作日志', 'inquire', '/monitor/operation/inquire'),
          api('操作日志详情', 'detail', '/monitor/operation/detail'),
          api('模块与操作', 'options', '/monitor/operation/options'),
          api('导出操作日志', 'export', '/monitor/operation/export'),
          api('校验操作日志', 'integrity', '/monitor/operation/integrity'),
        ],
        fields: { outcome: 'monitor_outcome', operatorType: 'monitor_operator_type', targetType: 'monitor_target_type' },
      },
      {
        name: '登录日志',
        path: '/monitor/login',
        element: 'monitor/login',
        icon: 'LoginOutlined',
        resources: [
          api('查询登录日志', 'inquire', '/monitor/login/inquire'),
          api('导出登录日志', 'export', '/monitor/login/export'),
          api('校验登录日志', 'integrity', '/monitor/login/integrity'),
        ],
        fields: { event: 'monitor_login_event', outcome: 'monitor_login_outcome' },
      },
      {
        name: '在线用户',
        path: '/monitor/online',
        element: 'monitor/online',
        icon: 'WifiOutlined',
        resources: [
          api('查询在线用户', 'inquire', '/monitor/online/inquire'),
          api('强制下线会话', 'revoke', '/monitor/online/revoke'),
          api('强制下线用户', 'revokeUser', '/monitor/online/revoke/user'),
        ],
      },
      {
        name: '通知渠道',
        path: '/monitor/channel',
        element: 'monitor/channel',
        icon: 'ApiOutlined',
        resources: [
          api('查询通知渠道', 'inquire', '/monitor/channel/inquire'),
          api('新增通知渠道', 'creation', '/monitor/channel/creation'),
          api('编辑通知渠道', 'edit', '/monitor/channel/edit'),
          api('测试发送', 'test', '/monitor/channel/test'),
          api('查询消息模板', 'templateInquire', '/monitor/template/inquire'),
          api('编辑消息模板', 'templateEdit', '/monitor/template/edit'),
          api('恢复默认模板', 'templateReset', '/monitor/template/reset'),
          api('预览消息模板', 'templatePreview', '/monitor/template/preview'),
        ],
        fields: { channelType: 'notify_channel_type', state: 'common_state', health: 'notify_channel_health' },
      },
      {
        name: '通知记录',
        path: '/monitor/message',
        element: 'monitor/message',
        icon: 'BookOutlined',
        resources: [
          api('查询通知记录', 'inquire', '/monitor/message/inquire'),
          api('导出通知记录', 'export', '/monitor/message/export'),
          api('重发通知', 'resend', '/monitor/message/resend'),
          api('可选渠道', 'channelChoices', '/monitor/message/channel/choices', 'inquire'),
        ],
        fields: { channelType: 'notify_channel_type', kind: 'notify_message_kind', state: 'notify_message_state' },
      },
      {
        name: '通知规则',
        path: '/monitor/rule',
        element: 'monitor/rule',
        icon: 'AlertOutlined',
        resources: [
          api('查询通知规则', 'inquire', '/monitor/rule/inquire'),
          api('新增通知规则', 'creation', '/monitor/rule/creation'),
          api('编辑通知规则', 'edit', '/monitor/rule/edit'),
          api('删除通知规则', 'removal', '/monitor/rule/removal'),
          api('可选单位', 'orgTree', '/monitor/rule/org/tree', 'inquire'),
          api('可选位置', 'locationTree', '/monitor/rule/location/tree', 'inquire'),
          api('可选渠道', 'channelChoices', '/monitor/rule/channel/choices', 'inquire'),
        ],
        fields: { state: 'common_state', minSeverity: 'alarm_severity' },
      },
      {
        name: '维护窗口',
        path: '/monitor/maintenance',
        element: 'monitor/maintenance',
        icon: 'ToolOutlined',
        resources: [
          api('查询维护窗口', 'inquire', '/monitor/maintenance/inquire'),
          api('新增维护窗口', 'creation', '/monitor/maintenance/creation'),
          api('编辑维护窗口', 'edit', '/monitor/maintenance/edit'),
          api('删除维护窗口', 'removal', '/monitor/maintenance/removal'),
          api('可选位置', 'locationTree', '/monitor/maintenance/location/tree', 'inquire'),
        ],
        fields: { state: 'common_state' },
      },
      {
        // The OpenAPI description (GET /api/openapi.json) is open to every signed-in user; the
        // menu decides who sees the screen.
        name: '接口文档',
        path: '/monitor/api-docs',
        element: 'monitor/api-docs',
        icon: 'ApiOutlined',
        resources: [],
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
  alarm_severity: ALARM_SEVERITIES.map((value) => ({ label: ALARM_SEVERITY_LABELS[value], value })),
  monitor_outcome: [
    { label: '成功', value: 'success' },
    { label: '拒绝', value: 'refused' },
    { label: '失败', value: 'failed' },
  ],
  monitor_operator_type: [
    { label: '用户', value: 'user' },
    { label: '未登录', value: 'anonymous' },
    { label: '系统', value: 'system' },
    { label: '设备', value: 'device' },
  ],
  monitor_target_type: [
    { label: '用户', value: 'user' },
    { label: '角色', value: 'role' },
    { label: '菜单', value: 'menu' },
    { label: '资源', value: 'resource' },
    { label: '字典', value: 'dict' },
    { label: '定时任务', value: 'schedule' },
    { label: '设备', value: 'device' },
    { label: '高级设置', value: 'advanced' },
    { label: '会话', value: 'session' },
    { label: '位置', value: 'location' },
    { label: '告警', value: 'alarm' },
    { label: '通知渠道', value: 'channel' },
    { label: '通知消息', value: 'message' },
    { label: '通知规则', value: 'rule' },
    { label: '维护窗口', value: 'maintenance' },
    { label: '组织单位', value: 'org' },
  ],
  monitor_login_event: [
    { label: '登录', value: 'signIn' },
    { label: '退出', value: 'signOut' },
    { label: '会话结束', value: 'sessionEnd' },
  ],
  monitor_login_outcome: [
    { label: '成功', value: 'success' },
    { label: '密码错误', value: 'wrongPassword' },
    { label: '用户不存在', value: 'unknownUser' },
    { label: '已禁用', value: 'disabled' },
    { label: '未绑定角色', value: 'noRole' },
    { label: '登录受限', value: 'throttled' },
    { label: '已过期', value: 'expired' },
    { label: '密码已修改', value: 'passwordChanged' },
    { label: '强制下线', value: 'forced' },
  ],
  notify_channel_type: [
    { label: '钉钉机器人', value: 'dingtalk' },
    { label: '企业微信机器人', value: 'wecom' },
    { label: '飞书机器人', value: 'feishu' },
    { label: 'Webhook', value: 'webhook' },
    { label: '电子邮件', value: 'email' },
  ],
  notify_channel_health: [
    { label: '未使用', value: 'unknown' },
    { label: '正常', value: 'ok' },
    { label: '异常', value: 'unhealthy' },
  ],
  notify_message_state: [
    { label: '排队中', value: 'queued' },
    { label: '发送中', value: 'sending' },
    { label: '已发送', value: 'sent' },
    { label: '已合并', value: 'digested' },
    { label: '发送失败', value: 'failed' },
  ],
  notify_message_kind: [
    { label: '告警产生', value: 'raise' },
    { label: '告警恢复', value: 'clear' },
    { label: '告警升级', value: 'escalation' },
    { label: '合并摘要', value: 'digest' },
    { label: '测试', value: 'test' },
  ],
};

export interface SeedSchedule {
  name: string;
  cron: string;
  task: TaskName;
  params: Record<string, unknown>;
  remark: string;
}

/** The housekeeping a hotel expects from day one; all of them run in Asia/Shanghai time. */
export const seedSchedules: SeedSchedule[] = [
  { name: '设备离线检测', cron: '* * * * *', task: 'device.offlineSweep', params: { minutes: 5 }, remark: '每分钟把 5 分钟没有心跳的设备标记为离线' },
  { name: '清理过期会话', cron: '0 3 * * *', task: 'session.purgeExpired', params: {}, remark: '每天 03:00 删除过期或已撤销的会话' },
  { name: '清理任务日志', cron: '0 4 * * *', task: 'schedule.pruneLogs', params: { days: 30 }, remark: '每天 04:00 删除 30 天前的运行日志' },
  { name: '清理审计日志', cron: '30 4 * * *', task: 'monitor.pruneLogs', params: { days: 180 }, remark: '每天 04:30 删除 180 天前的操作日志和登录日志' },
  { name: '设备在线统计', cron: '0 * * * *', task: 'device.onlineSample', params: { days: 7 }, remark: '每小时记录一次在线设备数（控制台的 24 小时曲线），保留 7 天' },
];

/** What staff read for a field resource in the grant and binding dialogs. */
export const fieldLabels: Record<string, string> = {
  state: '状态',
  isAuth: '是否需要授权',
  lastOutcome: '最近运行结果',
  type: '设备类型',
  online: '在线状态',
  outcome: '结果',
  operatorType: '操作人类型',
  targetType: '对象类型',
  event: '事件',
  severity: '级别',
  channelType: '渠道类型',
  health: '健康状态',
  kind: '消息类型',
};

/** The catalogue's API resources by path: the name a role grants each by, with its area's and menu's names. */
export function apiResourceNames(): Map<string, { name: string; area: string; menu: string }> {
  const byPath = new Map<string, { name: string; area: string; menu: string }>();
  for (const area of seedAreas) {
    for (const menu of area.children) {
      for (const resource of menu.resources) {
        if (resource.path) byPath.set(resource.path, { name: resource.name, area: area.name, menu: menu.name });
      }
    }
  }
  return byPath;
}

export const ADMIN_ROLE_NAME = '超级管理员';
export const ADMIN_USER_NAME = 'admin';
export const ADMIN_NICK_NAME = '系统管理员';
