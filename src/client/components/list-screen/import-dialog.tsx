/**
 * 导入: choose an .xlsx file (the template is one click away), see a preview that writes nothing —
 * how many rows would be created or updated and every row's problems (row, column, reason) — then
 * apply it, all rows or none. The result lists the secrets issued to new records (a user's initial
 * password, a device's key) once: they are not kept in clear anywhere.
 */
import { UploadOutlined } from '@ant-design/icons';
import { Alert, Button, Modal, Space, Switch, Table, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useDispatch } from 'react-redux';

import type { DataOf } from '../../../contract';
import { XLSX_MIME } from '../../../contract/constants';
import { api } from '../../lib/http/api';
import { useDownload } from '../../lib/http/download';
import { useUpload } from '../../lib/http/upload';
import { toast } from '../../lib/toast';
import type { ImportConfig } from './types';

type Summary = DataOf<'/sys/user/import'>;

interface ImportDialogProps {
  noun: string;
  config: ImportConfig;
  onClose: () => void;
}

const errorColumns = [
  { title: '行号', dataIndex: 'row', width: 70 },
  { title: '列', dataIndex: 'field', width: 100 },
  { title: '原因', dataIndex: 'reason' },
];

function Outcome({ summary }: { summary: Summary }) {
  if (summary.applied === 1) {
    return <Alert type="success" showIcon title={`导入成功：新增 ${summary.created} 条，更新 ${summary.updated} 条`} />;
  }
  const counts = `共 ${summary.total} 行：可新增 ${summary.created} 条，可更新 ${summary.updated} 条`;
  if (summary.failed === 0) return <Alert type="info" showIcon title={`${counts}，没有错误，可以导入`} />;
  return <Alert type="error" showIcon title={`${counts}，${summary.failed} 行有错误。请修改文件后重新选择，任何一行有错误时都不会导入。`} />;
}

function Credentials({ summary, config }: { summary: Summary; config: ImportConfig }) {
  if (summary.credentials.length === 0) return null;
  const all = summary.credentials.map((item) => `${item.key}\t${item.secret}`).join('\n');
  return (
    <>
      <Alert type="warning" showIcon title={`${config.secretLabel}只显示这一次，关闭后无法再次查看，请立即复制并妥善保存。`} style={{ margin: '12px 0' }} />
      <Typography.Paragraph copyable={{ text: all, tooltips: [`复制全部${config.secretLabel}`, '已复制'] }}>
        全部复制（{config.keyLabel} 与{config.secretLabel}，制表符分隔）
      </Typography.Paragraph>
      <Table
        rowKey="row"
        size="small"
        pagination={false}
        scroll={{ y: 240 }}
        dataSource={summary.credentials}
        columns={[
          { title: '行号', dataIndex: 'row', width: 70 },
          { title: config.keyLabel, dataIndex: 'key' },
          { title: config.secretLabel, dataIndex: 'secret', render: (secret: string) => <Typography.Text code>{secret}</Typography.Text> },
        ]}
      />
    </>
  );
}

export default function ImportDialog({ noun, config, onClose }: ImportDialogProps) {
  const dispatch = useDispatch();
  const upload = useUpload();
  const template = useDownload();
  const [file, setFile] = useState<File | null>(null);
  const [updateExisting, setUpdateExisting] = useState(false);
  const [summary, setSummary] = useState<Summary | null>(null);
  const [busy, setBusy] = useState(false);

  const preview = async (chosen: File, update: boolean) => {
    setBusy(true);
    setSummary(null);
    const result = await upload(config.upload, chosen, { mode: 'preview', updateExisting: update ? '1' : '0' });
    setBusy(false);
    if (result.ok) setSummary(result.envelope.data);
  };

  const apply = async () => {
    if (!file) return;
    setBusy(true);
    const result = await upload(config.upload, file, { mode: 'apply', updateExisting: updateExisting ? '1' : '0' });
    setBusy(false);
    if (!result.ok) {
      // Someone changed the data since the preview: show what is wrong now.
      await preview(file, updateExisting);
      return;
    }
    toast.success(result.envelope.msg);
    setSummary(result.envelope.data);
    dispatch(api.util.invalidateTags(config.invalidates));
  };

  const applied = summary?.applied === 1;
  const applicable = summary !== null && !applied && summary.failed === 0 && summary.created + summary.updated > 0;
  const footer = applied
    ? [
        <Button key="close" type="primary" onClick={onClose}>
          完成
        </Button>,
      ]
    : [
        <Button key="cancel" onClick={onClose}>
          取消
        </Button>,
        <Button key="apply" type="primary" disabled={!applicable} loading={busy && file !== null && summary !== null} onClick={apply}>
          导入
        </Button>,
      ];

  return (
    <Modal open title={`导入${noun}`} width={720} footer={footer} onCancel={onClose} mask={{ closable: false }} destroyOnHidden>
      <Space orientation="vertical" style={{ width: '100%' }}>
        <Typography.Text type="secondary">先下载模板填写，再选择文件：系统会先检查每一行（不写入任何数据），确认无误后再导入。任何一行有错误时整个文件都不会导入。</Typography.Text>
        <Space wrap>
          <Button loading={template.downloading} onClick={() => void template.start(config.template, undefined, config.templateName)}>
            下载模板
          </Button>
          <Upload
            accept={`.xlsx,${XLSX_MIME}`}
            maxCount={1}
            showUploadList={false}
            disabled={applied}
            beforeUpload={(chosen) => {
              setFile(chosen);
              void preview(chosen, updateExisting);
              // The file is sent by preview/apply, not by antd's own request.
              return false;
            }}
          >
            <Button icon={<UploadOutlined />} disabled={applied} loading={busy && summary === null}>
              {file ? '重新选择文件' : '选择文件'}
            </Button>
          </Upload>
          <Space size={6}>
            <Switch
              checked={updateExisting}
              disabled={applied}
              aria-label={`更新已有${noun}`}
              onChange={(checked) => {
                setUpdateExisting(checked);
                if (file) void preview(file, checked);
              }}
            />
            <span>
              更新已有{noun}（按{config.keyLabel}匹配）
            </span>
          </Space>
        </Space>
        {file && <Typography.Text>文件：{file.name}</Typography.Text>}
        {summary && <Outcome summary={summary} />}
        {summary && summary.errors.length > 0 && (
          <Table rowKey={(error) => `${error.row}-${error.field}-${error.reason}`} size="small" pagination={{ pageSize: 10 }} dataSource={summary.errors} columns={errorColumns} />
        )}
        {summary && <Credentials summary={summary} config={config} />}
      </Space>
    </Modal>
  );
}
