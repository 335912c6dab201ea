import { waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import MonitorChannelScreen from '../../../src/client/features/monitor/channel';
import { button } from '../testing/list-screen';
import { channelHandlers, dingtalkChannel, notifyMenu } from '../testing/handlers/notify';
import { findDialog, renderScreen, screen } from '../testing/render-screen';
import { createRequestLog, type RequestLog } from '../testing/request-log';
import { server } from '../testing/server';

// antd dialogs and selects render slowly in jsdom on a CPU shared with other suites.
jest.setTimeout(120_000);

const user = userEvent.setup({ delay: null });
let log: RequestLog;

beforeEach(() => {
  log = createRequestLog();
  server.use(...channelHandlers(log));
});

async function openChannels() {
  renderScreen(MonitorChannelScreen, notifyMenu);
  const row = await screen.findByRole('row', { name: /工程部钉钉群/ });
  // Labels come from the menu dictionary, which answers on its own.
  await within(row).findByText('钉钉机器人');
  return row;
}

async function fill(dialog: HTMLElement, values: Record<string, string>) {
  for (const [label, value] of Object.entries(values)) {
    const input = within(dialog).getByLabelText(label);
    await user.clear(input);
    await user.type(input, value);
  }
}

async function chooseType(dialog: HTMLElement, label: string) {
  await user.click(within(dialog).getByLabelText('渠道类型'));
  const options = await screen.findAllByText(label, { selector: '.ant-select-item-option-content' });
  await user.click(options[options.length - 1]);
}

const save = (dialog: HTMLElement) => user.click(within(dialog).getByRole('button', { name: button('保存') }));

describe('monitor/channel', () => {
  it('lists channels with masked credentials, the type label, health and its reason, dead letters', async () => {
    const row = await openChannels();
    expect(log.sent('/monitor/channel/inquire')[0]).toEqual({ size: 20, current: 1, params: {} });
    for (const text of ['https://oapi.dingtalk.com/robot/send?access_token=******c9d0', '异常', '钉钉拒绝：310000 sign not match', '2']) {
      expect(within(row).getByText(text)).toBeInTheDocument();
    }
    const mail = screen.getByRole('row', { name: /经理邮件/ });
    expect(within(mail).getByText('smtp.example.com:465 → gm@example.com, eng@example.com')).toBeInTheDocument();
    expect(within(mail).getByText('正常')).toBeInTheDocument();
  });

  it('creates a DingTalk robot with its address and secret in config; the SMTP settings are not asked', async () => {
    await openChannels();
    await user.click(screen.getByRole('button', { name: button('新增') }));
    const dialog = await findDialog('新增通知渠道');
    expect(within(dialog).queryByLabelText('SMTP 服务器')).toBeNull();
    await fill(dialog, { 渠道名称: '前厅钉钉群', 'Webhook 地址': 'https://oapi.dingtalk.com/robot/send?access_token=abc', 签名密钥: 'SECabc' });
    await save(dialog);

    expect(await screen.findByText('保存成功')).toBeInTheDocument();
    expect(log.last('/monitor/channel/creation')).toEqual({
      name: '前厅钉钉群',
      type: 'dingtalk',
      config: { url: 'https://oapi.dingtalk.com/robot/send?access_token=abc', secret: 'SECabc' },
      state: 1,
      remark: '',
    });
    await waitFor(() => expect(log.sent('/monitor/channel/inquire')).toHaveLength(2));
  });

  it('creates an e-mail channel: choosing the type swaps the address for the SMTP settings, recipients become a list', async () => {
    await openChannels();
    await user.click(screen.getByRole('button', { name: button('新增') }));
    const dialog = await findDialog('新增通知渠道');
    await chooseType(dialog, '电子邮件');
    await waitFor(() => expect(within(dialog).queryByLabelText('Webhook 地址')).toBeNull());
    expect(within(dialog).queryByLabelText('签名密钥')).toBeNull();
    await fill(dialog, { 渠道名称: '值班经理', 'SMTP 服务器': 'smtp.example.com', 'SMTP 密码': 'pw', 发件人: 'alarm@example.com', 收件人: 'a@example.com, b@example.com' });
    await save(dialog);

    await waitFor(() =>
      expect(log.last('/monitor/channel/creation')).toEqual({
        name: '值班经理',
        type: 'email',
        config: { host: 'smtp.example.com', port: 587, security: 'starttls', password: 'pw', from: 'alarm@example.com', to: ['a@example.com', 'b@example.com'] },
        state: 1,
        remark: '',
      }),
    );
  });

  it('refuses an address that is not http(s) before sending anything', async () => {
    await openChannels();
    await user.click(screen.getByRole('button', { name: button('新增') }));
    const dialog = await findDialog('新增通知渠道');
    await fill(dialog, { 渠道名称: '错误地址', 'Webhook 地址': 'ftp://x' });
    await save(dialog);
    expect(await within(dialog).findByText('Webhook 地址应以 http:// 或 https:// 开头')).toBeInTheDocument();
    expect(log.sent('/monitor/channel/creation')).toHaveLength(0);
  });

  it('edits with the credentials empty (kept by the server), with the id and version', async () => {
    const row = await openChannels();
    await user.click(within(row).getByRole('button', { name: button('编辑') }));
    const dialog = await findDialog('编辑通知渠道');
    expect(within(dialog).getByLabelText('Webhook 地址')).toHaveValue('');
    expect(within(dialog).getByLabelText('签名密钥')).toHaveValue('');
    expect(within(dialog).getAllByText('留空则保留原值；更换渠道类型时需重新填写')).toHaveLength(2);
    await fill(dialog, { 渠道名称: '工程部钉钉群2' });
    await save(dialog);

    await waitFor(() =>
      expect(log.last('/monitor/channel/edit')).toEqual({
        id: dingtalkChannel.id,
        version: dingtalkChannel.version,
        name: '工程部钉钉群2',
        type: 'dingtalk',
        config: { maxAttempts: 5 },
        state: 1,
        remark: '',
      }),
    );
  });

  it('测试发送 shows our reading, the vendor status and its body', async () => {
    const row = await openChannels();
    await user.click(within(row).getByRole('button', { name: button('测试发送') }));
    const dialog = await findDialog('测试发送：工程部钉钉群');
    expect(log.last('/monitor/channel/test')).toEqual({ id: dingtalkChannel.id });
    for (const text of ['渠道拒绝了测试消息：签名不匹配', '被拒绝', '200', '{"errcode":310000,"errmsg":"sign not match"}', '签名不匹配', '77']) {
      expect(within(dialog).getByText(text)).toBeInTheDocument();
    }
  });
});
