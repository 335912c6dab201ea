/**
 * The device key, shown once: the server keeps only its hash, so closing this dialog is the last
 * chance to copy it.
 */
import { Alert, Modal, Typography } from 'antd';

export interface IssuedKey {
  deviceName: string;
  deviceKey: string;
}

interface DeviceKeyDialogProps {
  issued: IssuedKey;
  onClose: () => void;
}

export function DeviceKeyDialog({ issued, onClose }: DeviceKeyDialogProps) {
  return (
    <Modal
      open
      title={`设备密钥：${issued.deviceName}`}
      okText="我已保存"
      onOk={onClose}
      onCancel={onClose}
      cancelButtonProps={{ style: { display: 'none' } }}
      mask={{ closable: false }}
    >
      <Alert type="warning" showIcon title="密钥只显示这一次，关闭后无法再次查看，请立即复制并妥善保存。" style={{ marginBottom: 16 }} />
      <Typography.Paragraph copyable={{ text: issued.deviceKey, tooltips: ['复制', '已复制'] }} code>
        {issued.deviceKey}
      </Typography.Paragraph>
    </Modal>
  );
}
