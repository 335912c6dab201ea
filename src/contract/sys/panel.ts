/** The dashboard's figures and chart series (sys/panel). Days are calendar days in Asia/Shanghai. */
import { Type } from '@sinclair/typebox';
import { postEmpty, reads, scoped } from '../endpoint';

/** How many days the per-day series cover, today included. */
export const PANEL_DAYS = 14;

export const OnlineSample = Type.Object({
  /** Epoch ms of the sample. */
  at: Type.Integer(),
  online: Type.Integer(),
  total: Type.Integer(),
});

export const DayCount = Type.Object({
  /** YYYY-MM-DD in Asia/Shanghai. */
  day: Type.String(),
  count: Type.Integer(),
});

export const DayRuns = Type.Object({
  day: Type.String(),
  success: Type.Integer(),
  failed: Type.Integer(),
});

export const TypeCount = Type.Object({
  /** The stored device type and its `device_type` dictionary label (the value itself when none). */
  type: Type.String(),
  label: Type.String(),
  count: Type.Integer(),
});

/** How many of the open alarms the panel lists. */
export const PANEL_ALARMS = 5;

export const PanelAlarm = Type.Object({
  id: Type.Integer(),
  type: Type.String(),
  severity: Type.String(),
  message: Type.String(),
  lastAt: Type.Integer(),
  count: Type.Integer(),
  deviceName: Type.String(),
  deviceSn: Type.String(),
});

export const PanelData = Type.Object({
  users: Type.Integer(),
  usersEnabled: Type.Integer(),
  roles: Type.Integer(),
  devices: Type.Integer(),
  devicesOnline: Type.Integer(),
  devicesOffline: Type.Integer(),
  schedulesEnabled: Type.Integer(),
  schedulesFailedLastRun: Type.Integer(),
  activeSessions: Type.Integer(),
  /** The hourly samples of the last 24 h, oldest first, ending with the live figure. */
  onlineHistory: Type.Array(OnlineSample),
  /** One entry per day of the last PANEL_DAYS days, oldest first, days without sign-ins as 0. */
  signInsPerDay: Type.Array(DayCount),
  /** Finished schedule runs per day of the last PANEL_DAYS days, oldest first. */
  scheduleRunsPerDay: Type.Array(DayRuns),
  /** Devices per type, most numerous first. */
  devicesByType: Type.Array(TypeCount),
  /** Alarms not yet cleared, and the latest PANEL_ALARMS of them (latest occurrence first). */
  alarmsActive: Type.Integer(),
  latestAlarms: Type.Array(PanelAlarm),
});

export const panelEndpoints = {
  '/sys/panel/inquire': scoped('device', postEmpty(PanelData, reads)),
};
