import { waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';

import MonitorChannelScreen from '../../../src/client/features/monitor/channel';
import type { BodyOf, DataOf } from '../../../src/contract';
import { api, ok } from '../testing/handlers';
import { button } from '../testing/list-screen';
import { channelHandlers, notifyMenu } from '../testing/handlers/notify';
import { findDialog, renderScreen, screen } from '../testing/render-screen';
import { createRequestLog, type RequestLog } from '../testing/request-log';
import { server } from '../testing/server';

// antd dialogs and drawers render slowly in jsdom on a CPU shared with other suites.
jest.setTimeout(120_000);

type TemplateRow = DataOf<'/monitor/template/inquire'>['records'][number];
const user = userEvent.setup({ delay: null });
let log: RequestLog;

const AT = Date.UTC(2026, 2, 1, 1, 30, 0);
const webhookRaise: TemplateRow = {
  id: 41,
  channelType: 'webhook',
  kind: 'raise',
  title: '【{{severity}}】{{alarmType}}：{{deviceName}}',
  body: '设备：{{deviceName}}（{{deviceSn}}）',
  custom: 0,
  version: 0,
  updatedAt: null,
};
const dingClear: TemplateRow = {
  id: 2,
  channelType: 'dingtalk',
  kind: 'clear',
  title: '恢复：{{deviceName}}',
  body: '- **位置**：{{location}}',
  custom: 1,
  version: 3,
  updatedAt: AT,
};

beforeEach(() => {
  log = createRequestLog();
  server.use(
    http.post(api('/monitor/template/inquire'), async ({ request }) => {
      const { size, current } = (await log.record(request)) as { size: number; current: number };
      return ok({ records: [dingClear, webhookRaise], current, size, total: 2, totalIsLowerBound: false });
    }),
    http.post(api('/monitor/template/preview'), async ({ request }) => {
      const body = (await log.record(request)) as BodyOf<'/monitor/template/preview'>;
      if (body.body.includes('{{roomNo}}')) {
        const msg = '未知的占位符：{{roomNo}}';
        return HttpResponse.json({ code: 400, msg, data: null, errors: [{ field: 'body', msg }] });
      }
      return ok({ title: '【重要】设备离线：0808 门锁', body: body.body.replace('{{location}}', '主楼 / 8F / 0808') });
    }),
    http.post(api('/monitor/template/edit'), async ({ request }) => {
      const body = (await log.record(request)) as BodyOf<'/monitor/template/edit'>;
      return ok({ ...webhookRaise, ...body, custom: 1, version: 1, updatedAt: AT }, '保存成功');
    }),
    http.post(api('/monitor/template/reset'), async ({ request }) => {
      await log.record(request);
      return ok({ ...dingClear, custom: 0, version: 0 }, '已恢复默认模板');
    }),
    ...channelHandlers(log),
  );
});

async function openTemplates() {
  renderScreen(MonitorChannelScreen, notifyMenu);
  await screen.findByRole('row', { name: /工程部钉钉群/ });
  await user.click(screen.getByRole('button', { name: button('消息模板') }));
  return screen.findByRole('row', { name: /【\{\{severity\}\}】/ });
}

describe('monitor/channel 消息模板', () => {
  it('lists each channel type’s templates, default or edited', async () => {
    const row = await openTemplates();
    await within(row).findByText('Webhook');
    expect(within(row).getByText('告警')).toBeInTheDocument();
    expect(within(row).getByText('默认')).toBeInTheDocument();
    const edited = screen.getByRole('row', { name: /恢复：\{\{deviceName\}\}/ });
    expect(within(edited).getByText('已修改')).toBeInTheDocument();
    // Only an edited template can go back to the default.
    expect(within(row).queryByRole('button', { name: button('恢复默认') })).toBeNull();
    await user.click(within(edited).getByRole('button', { name: button('恢复默认') }));
    await user.click(await screen.findByRole('button', { name: button('确定') }));
    expect(await screen.findByText('已恢复默认模板')).toBeInTheDocument();
    expect(log.last('/monitor/template/reset')).toEqual({ channelType: 'dingtalk', kind: 'clear' });
  });

  it('previews the form’s template, shows an unknown placeholder under its field, and saves the edit', async () => {
    const row = await openTemplates();
    await user.click(within(row).getByRole('button', { name: button('编辑') }));
    const dialog = await findDialog('编辑消息模板');
    // The form lists the placeholders it takes.
    expect(within(dialog).getByText(/\{\{location\}\} 位置/)).toBeInTheDocument();
    const body = within(dialog).getByLabelText('正文模板');
    await user.clear(body);
    await user.click(body);
    await user.paste('房间 {{roomNo}}');
    await user.click(within(dialog).getByRole('button', { name: button('预览') }));
    expect(await within(dialog).findByText('未知的占位符：{{roomNo}}', { selector: '.ant-form-item-explain-error' })).toBeInTheDocument();

    await user.clear(body);
    await user.click(body);
    await user.paste('**{{location}}** 离线');
    await user.click(within(dialog).getByRole('button', { name: button('预览') }));
    const preview = await within(dialog).findByTestId('template-preview');
    expect(within(preview).getByText('【重要】设备离线：0808 门锁')).toBeInTheDocument();
    expect(within(preview).getByText('**主楼 / 8F / 0808** 离线')).toBeInTheDocument();
    expect(log.last('/monitor/template/preview')).toEqual({ channelType: 'webhook', kind: 'raise', title: webhookRaise.title, body: '**{{location}}** 离线' });

    await user.click(within(dialog).getByRole('button', { name: button('保存') }));
    await waitFor(() =>
      expect(log.last('/monitor/template/edit')).toEqual({ channelType: 'webhook', kind: 'raise', title: webhookRaise.title, body: '**{{location}}** 离线', version: 0 }),
    );
  });
});
