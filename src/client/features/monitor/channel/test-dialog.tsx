/**
 * 测试发送's answer: our reading (sent, throttled, refused, retry), the vendor's HTTP status or SMTP
 * reply code and its body as it came, so whoever sets up a robot sees what the vendor said.
 */
import { Alert, Descriptions, Modal, Typography } from 'antd';

import type { DataOf } from '../../../../contract';
import type { Envelope } from '../../../../contract/constants';

type TestResult = DataOf<'/monitor/channel/test'>;

const VERDICT_ALERT: Record<TestResult['verdict'], 'success' | 'warning' | 'error'> = { sent: 'success', throttled: 'warning', retry: 'warning', refused: 'error' };
const VERDICT_LABELS: Record<TestResult['verdict'], string> = { sent: '已发送', throttled: '被限流', retry: '暂时失败', refused: '被拒绝' };

export function TestResultDialog({ channelName, envelope, onClose }: { channelName: string; envelope: Envelope<TestResult>; onClose: () => void }) {
  const result = envelope.data;
  return (
    <Modal open title={`测试发送：${channelName}`} footer={null} onCancel={onClose} width={640}>
      <Alert type={VERDICT_ALERT[result.verdict]} title={envelope.msg} showIcon style={{ marginBottom: 16 }} />
      <Descriptions column={1} size="small" bordered>
        <Descriptions.Item label="结果">{VERDICT_LABELS[result.verdict]}</Descriptions.Item>
        <Descriptions.Item label="厂商状态码">{result.status ?? '无应答'}</Descriptions.Item>
        <Descriptions.Item label="厂商应答">
          <Typography.Paragraph code style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all', margin: 0 }}>
            {result.answer || '（空）'}
          </Typography.Paragraph>
        </Descriptions.Item>
        {result.reason && <Descriptions.Item label="原因">{result.reason}</Descriptions.Item>}
        <Descriptions.Item label="通知记录编号">{result.messageId}</Descriptions.Item>
      </Descriptions>
    </Modal>
  );
}
