/**
 * 通知渠道 (monitor/channel): where alarm messages go (DingTalk, WeCom and Feishu robots, a webhook,
 * e-mail), each with its health and dead letters; 测试发送 shows the vendor's answer; 消息模板 edits
 * what the messages of each channel type say.
 */
import { Button } from 'antd';
import { useState } from 'react';

import type { DataOf } from '../../../../contract';
import type { Envelope } from '../../../../contract/constants';
import { ListScreen, Permitted, savedMsg, useGranted } from '../../../components/list-screen';
import { useCreateChannelMutation, useEditChannelMutation, useInquireChannelsQuery, useTestChannelMutation } from './api';
import { channelColumns, channelCreateDefaults, channelFields, channelFilters, channelFromForm, channelToForm, type ChannelRow } from './config';
import { TemplateDrawer } from './template-drawer';
import { TestResultDialog } from './test-dialog';

export const CHANNEL_VIEW = 'monitor/channel';

interface Tested {
  channelName: string;
  envelope: Envelope<DataOf<'/monitor/channel/test'>>;
}

function TestButton({ channel, onTested }: { channel: ChannelRow; onTested: (tested: Tested) => void }) {
  const [test, { isLoading }] = useTestChannelMutation();
  const run = async () => {
    // A refusal (an unknown channel) was toasted by the base query.
    const envelope = await test({ id: channel.id })
      .unwrap()
      .catch(() => null);
    if (envelope) onTested({ channelName: channel.name, envelope });
  };
  return (
    <Button type="link" size="small" loading={isLoading} onClick={() => void run()}>
      测试发送
    </Button>
  );
}

export default function MonitorChannelScreen() {
  const mayTest = useGranted(CHANNEL_VIEW, 'api_test');
  const [tested, setTested] = useState<Tested | null>(null);
  const [templatesOpen, setTemplatesOpen] = useState(false);
  return (
    <>
      <ListScreen
        view={CHANNEL_VIEW}
        noun="通知渠道"
        useInquire={useInquireChannelsQuery}
        filters={channelFilters}
        columns={channelColumns}
        fields={channelFields}
        createDefaults={channelCreateDefaults}
        toForm={channelToForm}
        fromForm={channelFromForm}
        create={{ useMutation: useCreateChannelMutation, successMsg: savedMsg }}
        edit={{ useMutation: useEditChannelMutation, successMsg: savedMsg }}
        rowActions={(channel) => mayTest && <TestButton channel={channel} onTested={setTested} />}
        toolbar={() => (
          <Permitted view={CHANNEL_VIEW} resource="api_templateInquire">
            <Button onClick={() => setTemplatesOpen(true)}>消息模板</Button>
          </Permitted>
        )}
      />
      {templatesOpen && <TemplateDrawer view={CHANNEL_VIEW} onClose={() => setTemplatesOpen(false)} />}
      {tested && <TestResultDialog channelName={tested.channelName} envelope={tested.envelope} onClose={() => setTested(null)} />}
    </>
  );
}
