import { waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import MonitorRuleScreen from '../../../src/client/features/monitor/rule';
import MonitorMaintenanceScreen from '../../../src/client/features/monitor/maintenance';
import { button } from '../testing/list-screen';
import { locationHandlers } from '../testing/handlers/location';
import { offlineRule, renovation, ruleHandlers, ruleMenu } from '../testing/handlers/notify';
import { findDialog, renderScreen, screen } from '../testing/render-screen';
import { createRequestLog, type RequestLog } from '../testing/request-log';
import { server } from '../testing/server';

// antd dialogs and selects render slowly in jsdom on a CPU shared with other suites.
jest.setTimeout(120_000);

const user = userEvent.setup({ delay: null });
let log: RequestLog;

beforeEach(() => {
  log = createRequestLog();
  server.use(...ruleHandlers(log));
});

async function chooseIn(dialog: HTMLElement, label: string, option: string) {
  await user.click(within(dialog).getByLabelText(label));
  const options = await screen.findAllByText(option, { selector: '.ant-select-item-option-content' });
  await user.click(options[options.length - 1]);
}

describe('monitor/rule', () => {
  it('lists a rule in words: types, severity, unit, location, channels, quiet hours and escalation', async () => {
    renderScreen(MonitorRuleScreen, ruleMenu);
    const row = await screen.findByRole('row', { name: /离线告警通知/ });
    await within(row).findByText('工程部钉钉群');
    // Severity labels come from the menu dictionary, which answers on its own.
    await within(row).findByText('重要');
    for (const text of ['设备离线', '上海浦东店', '主楼 / 8F', '22:00–07:00', '15 分钟 → 经理邮件']) expect(within(row).getByText(text)).toBeInTheDocument();
  });

  it('creates a rule: channels, quiet hours as minutes of the day, an escalation step', async () => {
    renderScreen(MonitorRuleScreen, ruleMenu);
    await screen.findByRole('row', { name: /离线告警通知/ });
    await user.click(screen.getByRole('button', { name: button('新增') }));
    const dialog = await findDialog('新增通知规则');
    await user.type(within(dialog).getByLabelText('规则名称'), '夜班');
    await chooseIn(dialog, '通知渠道', '工程部钉钉群');
    await user.type(within(dialog).getByLabelText('免打扰开始'), '23:30');
    await user.type(within(dialog).getByLabelText('免打扰结束'), '06:00');
    await user.click(within(dialog).getByRole('button', { name: '添加升级步骤' }));
    await user.type(within(dialog).getByLabelText('第 1 级等待分钟数'), '30');
    await chooseIn(dialog, '第 1 级升级渠道', '经理邮件');
    await user.click(within(dialog).getByRole('button', { name: button('保存') }));

    await waitFor(() =>
      expect(log.last('/monitor/rule/creation')).toEqual({
        name: '夜班',
        state: 1,
        alarmTypes: [],
        minSeverity: 'warning',
        orgId: null,
        locationId: null,
        symptoms: 1,
        channelIds: [3],
        quietStart: 23 * 60 + 30,
        quietEnd: 6 * 60,
        escalation: [{ afterMinutes: 30, channelIds: [4] }],
        remark: '',
      }),
    );
  });

  it('refuses quiet hours not written as HH:mm before sending', async () => {
    renderScreen(MonitorRuleScreen, ruleMenu);
    const row = await screen.findByRole('row', { name: /离线告警通知/ });
    await user.click(within(row).getByRole('button', { name: button('编辑') }));
    const dialog = await findDialog('编辑通知规则');
    expect(within(dialog).getByLabelText('免打扰开始')).toHaveValue('22:00');
    await user.clear(within(dialog).getByLabelText('免打扰开始'));
    await user.type(within(dialog).getByLabelText('免打扰开始'), '25:00');
    await user.click(within(dialog).getByRole('button', { name: button('保存') }));
    expect(await within(dialog).findByText('请按 HH:mm 填写，如 22:00')).toBeInTheDocument();
    expect(log.sent('/monitor/rule/edit')).toHaveLength(0);
  });

  it('picks the organisation unit from the unit tree: the region takes its hotels too', async () => {
    renderScreen(MonitorRuleScreen, ruleMenu);
    const row = await screen.findByRole('row', { name: /离线告警通知/ });
    await user.click(within(row).getByRole('button', { name: button('编辑') }));
    const dialog = await findDialog('编辑通知规则');
    // The unit the rule names shows by its name, read from the tree.
    expect(await within(dialog).findByText('上海浦东店')).toBeInTheDocument();
    await user.click(within(dialog).getByLabelText('组织单位'));
    const regions = await screen.findAllByText('华东区', { selector: '.ant-select-tree-title' });
    await user.click(regions[regions.length - 1]);
    await user.click(within(dialog).getByRole('button', { name: button('保存') }));
    await waitFor(() => expect(log.last('/monitor/rule/edit')).toMatchObject({ id: offlineRule.id, orgId: 11, locationId: 5 }));
  });

  it('offers units, locations and channels read at its own paths to a role holding 通知规则 alone', async () => {
    server.use(...locationHandlers(log));
    // No 组织管理, 设备管理 (查询位置) or 通知渠道: the pickers are the rule screen's own resources.
    const ruleOnly = ruleMenu
      .filter((entry) => entry.element === '' || entry.element === 'monitor/rule')
      .map((entry) => (entry.element === '' ? entry : { ...entry, granted: ['api_inquire', 'api_creation', 'api_orgTree', 'api_locationTree', 'api_channelChoices'] }));
    renderScreen(MonitorRuleScreen, ruleOnly);
    const row = await screen.findByRole('row', { name: /离线告警通知/ });
    // The list names the rule's channels from the same choices.
    expect(await within(row).findByText('工程部钉钉群')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: button('新增') }));
    const dialog = await findDialog('新增通知规则');

    await user.click(within(dialog).getByLabelText('组织单位'));
    expect(await screen.findByTitle('上海浦东店')).toBeInTheDocument();
    await user.click(within(dialog).getByLabelText('位置范围'));
    expect(await screen.findByTitle('主楼')).toBeInTheDocument();
    await chooseIn(dialog, '通知渠道', '经理邮件');

    expect(log.sent('/monitor/rule/org/tree').length).toBeGreaterThan(0);
    expect(log.sent('/monitor/rule/location/tree').length).toBeGreaterThan(0);
    expect(log.sent('/monitor/rule/channel/choices').length).toBeGreaterThan(0);
    for (const owners of ['/sys/org/tree', '/hotel/location/tree', '/monitor/channel/inquire']) expect(log.sent(owners)).toHaveLength(0);
  });

  it('removes a rule after confirmation', async () => {
    renderScreen(MonitorRuleScreen, ruleMenu);
    const row = await screen.findByRole('row', { name: /离线告警通知/ });
    await user.click(within(row).getByRole('button', { name: button('删除') }));
    await user.click(await screen.findByRole('button', { name: button('确定') }));
    expect(await screen.findByText('删除成功')).toBeInTheDocument();
    expect(log.last('/monitor/rule/removal')).toEqual({ id: offlineRule.id });
  });
});

describe('monitor/maintenance', () => {
  it('lists windows with their location and times, and edits one keeping its period', async () => {
    renderScreen(MonitorMaintenanceScreen, ruleMenu);
    const row = await screen.findByRole('row', { name: /8F 装修/ });
    for (const text of ['主楼 / 8F', '2026-03-01 09:30:00', '2026-03-01 11:30:00']) expect(within(row).getByText(text)).toBeInTheDocument();
    await user.click(within(row).getByRole('button', { name: button('编辑') }));
    const dialog = await findDialog('编辑维护窗口');
    await user.type(within(dialog).getByLabelText('备注'), '延期');
    await user.click(within(dialog).getByRole('button', { name: button('保存') }));
    await waitFor(() =>
      expect(log.last('/monitor/maintenance/edit')).toEqual({
        id: renovation.id,
        version: renovation.version,
        name: '8F 装修',
        locationId: 5,
        startsAt: renovation.startsAt,
        endsAt: renovation.endsAt,
        state: 1,
        remark: '延期',
      }),
    );
  });
});
