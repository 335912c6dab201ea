/** The panel (sys/panel): its counts, and the four charts drawn from the server's series. */
import { within } from '@testing-library/react';
import { http } from 'msw';

import Panel from '../../../src/client/features/sys/panel';
import { onlineOption, runsOption, signInsOption, typesOption } from '../../../src/client/features/sys/panel/charts/options';
import { api, ok, panelData } from '../testing/handlers';
import { sysMenu } from '../testing/handlers/sys-common';
import { renderScreen, screen } from '../testing/render-screen';
import { server } from '../testing/server';

jest.setTimeout(60_000);

describe('sys/panel', () => {
  it('shows the counts and names what each chart shows', async () => {
    renderScreen(Panel);
    expect(await screen.findByText('启用用户 / 用户总数')).toBeInTheDocument();
    expect(screen.getByText('在线会话')).toBeInTheDocument();
    // Open alarms: their count and the latest, with how many times each happened.
    expect(screen.getByText('未清除告警')).toBeInTheDocument();
    expect(screen.getByText('最新告警')).toBeInTheDocument();
    expect(screen.getByText(/0808 门锁（LOCK-0808）：设备心跳超时，已离线（2 次）/)).toBeInTheDocument();
    // The charts arrive in their own chunk, after the counts.
    expect(await screen.findByRole('img', { name: '近 24 小时在线设备：当前 37 / 40 台' })).toBeInTheDocument();
    expect(screen.getByText('近 24 小时在线设备')).toBeInTheDocument();
    const signIns = panelData.signInsPerDay.reduce((sum, day) => sum + day.count, 0);
    expect(screen.getByText('近 14 天登录次数')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: `近 14 天登录次数：共 ${signIns} 次，今天 1 次` })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: '近 14 天定时任务执行：成功 336 次，失败 1 次' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: '设备类型分布：智能门锁 30 台，电视 10 台' })).toBeInTheDocument();
  });

  it('says so when there are no devices to chart by type', async () => {
    server.use(http.post(api('/sys/panel/inquire'), () => ok({ ...panelData, devicesByType: [] })));
    renderScreen(Panel);
    expect(await screen.findByText('暂无设备')).toBeInTheDocument();
  });

  it('opens the list a count is of, filtered to it, for the screens the user has', async () => {
    const alarms = { ...sysMenu[0], id: 90, pid: null, name: '告警管理', path: '/hotel/alarm', element: 'hotel/alarm' };
    renderScreen(Panel, [...sysMenu, alarms]);
    expect(await screen.findByRole('link', { name: '未清除告警：查看列表' })).toHaveAttribute('href', '/hotel/alarm?status=active');
    expect(screen.getByRole('link', { name: '离线设备：查看列表' })).toHaveAttribute('href', '/hotel/device?online=0');
    expect(screen.getByRole('link', { name: '启用用户 / 用户总数：查看列表' })).toHaveAttribute('href', '/sys/user');
    // 在线用户 is not in this user's menu: its count is only a count.
    expect(screen.getByText('在线会话')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: '在线会话：查看列表' })).toBeNull();
  });

  it('says 暂无数据 for a 24 h chart with nothing to draw', async () => {
    server.use(http.post(api('/sys/panel/inquire'), () => ok({ ...panelData, onlineHistory: [{ at: Date.UTC(2026, 0, 1), online: 0, total: 0 }] })));
    renderScreen(Panel);
    const card = (await screen.findByText('近 24 小时在线设备')).closest('.ant-card') as HTMLElement;
    expect(await within(card).findByText('暂无数据', { selector: '.ant-empty-description' })).toBeInTheDocument();
    expect(within(card).queryByRole('img')).toBeNull();
  });

  describe('chart options', () => {
    it('draws online and total devices over time, in Shanghai time', () => {
      const option = onlineOption(panelData.onlineHistory);
      const [online, total] = option.series as Array<{ name: string; data: number[][] }>;
      const shanghai = (at: number) => at + 8 * 3_600_000;
      expect(online).toMatchObject({ name: '在线设备', data: panelData.onlineHistory.map((p) => [shanghai(p.at), p.online]) });
      expect(total).toMatchObject({ name: '设备总数', data: panelData.onlineHistory.map((p) => [shanghai(p.at), p.total]) });
      expect(option.useUTC).toBe(true);
    });

    it('draws sign-ins per day and runs per day stacked by outcome', () => {
      const signIns = signInsOption(panelData.signInsPerDay);
      expect(signIns.xAxis).toMatchObject({ data: panelData.signInsPerDay.map((d) => d.day.slice(5)) });
      expect(signIns.series).toMatchObject([{ type: 'bar', data: panelData.signInsPerDay.map((d) => d.count) }]);
      const runs = runsOption(panelData.scheduleRunsPerDay);
      expect(runs.series).toMatchObject([
        { name: '成功', stack: 'runs', data: panelData.scheduleRunsPerDay.map((d) => d.success) },
        { name: '失败', stack: 'runs', data: panelData.scheduleRunsPerDay.map((d) => d.failed) },
      ]);
    });

    it('draws devices by type with the dictionary labels', () => {
      expect(typesOption(panelData.devicesByType).series).toMatchObject([
        {
          type: 'pie',
          data: [
            { name: '智能门锁', value: 30 },
            { name: '电视', value: 10 },
          ],
        },
      ]);
    });
  });
});
