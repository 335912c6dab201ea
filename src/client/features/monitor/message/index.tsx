/**
 * 通知记录 (monitor/message): every message the outbox holds, newest first, with its state, attempts
 * and the vendor's answer; 重发 queues a dead letter again; 导出 saves the filtered list.
 */
import { Button, Popconfirm } from 'antd';

import type { BodyOf } from '../../../../contract';
import { ListScreen, useGranted, type PagedQueryHook } from '../../../components/list-screen';
import { toast } from '../../../lib/toast';
import { useInquireMessagesQuery, useResendMessagesMutation } from './api';
import { MESSAGE_TABLE_WIDTH, MessageDetail, messageColumns, messageFilters, type MessageRow } from './config';

export const MESSAGE_VIEW = 'monitor/message';

const useMessagePage: PagedQueryHook<BodyOf<'/monitor/message/inquire'>, MessageRow> = useInquireMessagesQuery;

function ResendButton({ message }: { message: MessageRow }) {
  const [resend, { isLoading }] = useResendMessagesMutation();
  const run = async () => {
    // A refusal was toasted by the base query; a success toasts the server msg (已重新排队 N 条消息).
    const envelope = await resend({ ids: [message.id] })
      .unwrap()
      .catch(() => null);
    if (envelope) toast.success(envelope.msg);
  };
  return (
    <Popconfirm title="重新排队发送这条消息？" onConfirm={() => void run()}>
      <Button type="link" size="small" loading={isLoading}>
        重发
      </Button>
    </Popconfirm>
  );
}

export default function MonitorMessageScreen() {
  const mayResend = useGranted(MESSAGE_VIEW, 'api_resend');
  return (
    <ListScreen
      view={MESSAGE_VIEW}
      noun="通知记录"
      useInquire={useMessagePage}
      filters={messageFilters}
      columns={messageColumns}
      minWidth={MESSAGE_TABLE_WIDTH}
      detail={{ title: (row) => `通知记录 ${row.id}`, render: (row) => <MessageDetail row={row} />, resource: 'api_inquire' }}
      rowActions={(message) => mayResend && message.state === 'failed' && <ResendButton message={message} />}
      exportTo={{ endpoint: '/monitor/message/export', fileName: '通知记录.xlsx' }}
    />
  );
}
