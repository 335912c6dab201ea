/** The panel's four charts as echarts options, from the server's series (DataOf panel inquire). */
import type { DataOf } from '../../../../../contract';
import type { ChartOption } from './echarts';

type PanelData = DataOf<'/sys/panel/inquire'>;

const SUCCESS = '#52c41a';
const FAILED = '#ff4d4f';
const PRIMARY = '#1677ff';
/** Asia/Shanghai is UTC+8 all year: times shifted by it and drawn as UTC read as Shanghai time. */
const SHANGHAI_OFFSET_MS = 8 * 3_600_000;

/** 2026-01-05 -> 01-05 */
const shortDay = (day: string) => day.slice(5);

const grid = { left: 8, right: 16, top: 36, bottom: 8, containLabel: true };

const DAY_MS = 24 * 3_600_000;

export function onlineOption(history: PanelData['onlineHistory']): ChartOption {
  const at = (time: number) => time + SHANGHAI_OFFSET_MS;
  // The whole last 24 h, also while there are only a few samples yet.
  const end = at(history.at(-1)?.at ?? Date.now());
  return {
    useUTC: true,
    color: [PRIMARY, '#bfbfbf'],
    tooltip: { trigger: 'axis' },
    legend: { top: 0 },
    grid,
    xAxis: { type: 'time', min: end - DAY_MS, max: end, axisLabel: { formatter: '{HH}:{mm}' } },
    yAxis: { type: 'value', minInterval: 1 },
    series: [
      { name: '在线设备', type: 'line', showSymbol: false, areaStyle: { opacity: 0.15 }, data: history.map((point) => [at(point.at), point.online]) },
      { name: '设备总数', type: 'line', showSymbol: false, lineStyle: { type: 'dashed' }, data: history.map((point) => [at(point.at), point.total]) },
    ],
  };
}

export function signInsOption(days: PanelData['signInsPerDay']): ChartOption {
  return {
    color: [PRIMARY],
    tooltip: { trigger: 'axis' },
    grid: { ...grid, top: 16 },
    xAxis: { type: 'category', data: days.map((entry) => shortDay(entry.day)) },
    yAxis: { type: 'value', minInterval: 1 },
    series: [{ name: '登录次数', type: 'bar', barMaxWidth: 24, data: days.map((entry) => entry.count) }],
  };
}

export function runsOption(days: PanelData['scheduleRunsPerDay']): ChartOption {
  return {
    color: [SUCCESS, FAILED],
    tooltip: { trigger: 'axis' },
    legend: { top: 0 },
    grid,
    xAxis: { type: 'category', data: days.map((entry) => shortDay(entry.day)) },
    yAxis: { type: 'value', minInterval: 1 },
    series: [
      { name: '成功', type: 'bar', stack: 'runs', barMaxWidth: 24, data: days.map((entry) => entry.success) },
      { name: '失败', type: 'bar', stack: 'runs', barMaxWidth: 24, data: days.map((entry) => entry.failed) },
    ],
  };
}

export function typesOption(types: PanelData['devicesByType']): ChartOption {
  return {
    tooltip: { trigger: 'item', formatter: '{b}：{c} 台（{d}%）' },
    legend: { bottom: 0, type: 'scroll' },
    series: [
      {
        name: '设备类型',
        type: 'pie',
        radius: ['40%', '68%'],
        center: ['50%', '45%'],
        label: { formatter: '{b} {c}' },
        data: types.map((entry) => ({ name: entry.label, value: entry.count })),
      },
    ],
  };
}

/** What each chart shows, in words (the charts' accessible names). */
export const summaries = {
  online: (data: PanelData) => `近 24 小时在线设备：当前 ${data.devicesOnline} / ${data.devices} 台`,
  signIns: (days: PanelData['signInsPerDay']) => `近 ${days.length} 天登录次数：共 ${days.reduce((sum, entry) => sum + entry.count, 0)} 次，今天 ${days.at(-1)?.count ?? 0} 次`,
  runs: (days: PanelData['scheduleRunsPerDay']) =>
    `近 ${days.length} 天定时任务执行：成功 ${days.reduce((sum, entry) => sum + entry.success, 0)} 次，失败 ${days.reduce((sum, entry) => sum + entry.failed, 0)} 次`,
  types: (types: PanelData['devicesByType']) => `设备类型分布：${types.map((entry) => `${entry.label} ${entry.count} 台`).join('，') || '暂无设备'}`,
};
