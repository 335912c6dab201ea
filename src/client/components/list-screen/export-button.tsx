/**
 * 导出: downloads the list as it is shown (filters, fixed params, sort) through the list's export
 * endpoint. While the file streams in, the button shows how much has arrived, and 取消 stops it.
 */
import { DownloadOutlined } from '@ant-design/icons';
import { Button, Space } from 'antd';

import type { BodyOf } from '../../../contract';
import { useDownload, type DownloadProgress } from '../../lib/http/download';
import type { DownloadKey } from '../../lib/http/endpoints';
import { useGranted } from './menu-grants';
import type { ExportConfig } from './types';
import type { Inquiry } from './use-inquire';
import type { ViewName } from '../../config/views';

const DEFAULT_RESOURCE = 'api_export';

export function progressText({ loaded, total }: DownloadProgress): string {
  if (total) return `导出中 ${Math.min(100, Math.floor((loaded / total) * 100))}%`;
  if (loaded < 1024) return '导出中…';
  const kb = loaded / 1024;
  return `导出中 ${kb < 1024 ? `${kb.toFixed(0)} KB` : `${(kb / 1024).toFixed(1)} MB`}`;
}

interface ExportButtonProps {
  view: ViewName;
  config: ExportConfig;
  inquiry: Pick<Inquiry<unknown>, 'params' | 'sort'>;
}

export function ExportButton({ view, config, inquiry }: ExportButtonProps) {
  const granted = useGranted(view, config.resource ?? DEFAULT_RESOURCE);
  const { start, cancel, progress } = useDownload();
  if (!granted) return null;
  // The list's own params and sort, which its inquiry endpoint accepted: its export takes the same.
  const body = { params: inquiry.params, ...(inquiry.sort ? { sort: inquiry.sort } : {}) } as BodyOf<DownloadKey>;
  return (
    <Space size={4}>
      <Button icon={<DownloadOutlined />} loading={progress !== null} onClick={() => void start(config.endpoint, body, config.fileName)}>
        {progress ? progressText(progress) : '导出'}
      </Button>
      {progress && (
        <Button type="link" onClick={cancel}>
          取消
        </Button>
      )}
    </Space>
  );
}
