/**
 * What the message template list shows and edits (docs/api/monitor.md, Message templates): every
 * channel type and kind, its title and text with `{{placeholders}}`, edited or the default. The
 * form lists the placeholders and previews the template with a sample alarm before saving; a
 * placeholder that does not exist is shown under its field, by the preview or the save.
 */
import { Button, Form, Space, Tag, Typography } from 'antd';
import { useState } from 'react';

import type { BodyOf, DataOf } from '../../../../contract';
import { TEMPLATE_BODY_MAX, TEMPLATE_KIND_LABELS, TEMPLATE_KINDS, TEMPLATE_PLACEHOLDERS, TEMPLATE_TITLE_MAX, type TemplateKind } from '../../../../contract/constants';
import { fieldErrorsOf, showFieldErrors, type ColumnConfig, type CustomControlProps, type FieldConfig, type FormValues } from '../../../components/list-screen';
import { formatTime } from '../../../lib/time';
import { usePreviewTemplateMutation } from './api';

export type TemplateRow = DataOf<'/monitor/template/inquire'>['records'][number];
type PreviewBody = BodyOf<'/monitor/template/preview'>;

const KIND_OPTIONS = TEMPLATE_KINDS.map((kind) => ({ value: kind, label: TEMPLATE_KIND_LABELS[kind] }));
const useKindOptions = () => KIND_OPTIONS;
const kindLabel = (kind: string) => TEMPLATE_KIND_LABELS[kind as TemplateKind] ?? kind;

export const PLACEHOLDER_HINT = `可用占位符：${Object.entries(TEMPLATE_PLACEHOLDERS)
  .map(([name, meaning]) => `{{${name}}} ${meaning}`)
  .join('；')}`;

export const templateFilters: FieldConfig[] = [
  { name: 'channelType', label: '渠道类型', kind: 'select', dict: 'channelType' },
  { name: 'kind', label: '消息类型', kind: 'select', useOptions: useKindOptions },
];

export const templateColumns: ColumnConfig<TemplateRow>[] = [
  { title: '渠道类型', dataIndex: 'channelType', dict: 'channelType', nowrap: true },
  { title: '消息类型', dataIndex: 'kind', nowrap: true, render: kindLabel },
  { title: '标题模板', dataIndex: 'title', ellipsis: true },
  { title: '模板', dataIndex: 'custom', nowrap: true, render: (custom: number) => (custom === 1 ? <Tag color="processing">已修改</Tag> : <Tag>默认</Tag>) },
  { title: '修改时间', dataIndex: 'updatedAt', nowrap: true, render: (at: number | null) => (at === null ? '—' : formatTime(at)) },
];

/** The pair a template is for, carried in the form as the preview field's value. */
interface TemplatePair {
  channelType: PreviewBody['channelType'];
  kind: PreviewBody['kind'];
}

/** 预览: the form's title and text filled with a sample alarm by the server. */
function TemplatePreview({ id, value }: CustomControlProps) {
  const form = Form.useFormInstance();
  const [preview, { isLoading }] = usePreviewTemplateMutation();
  const [shown, setShown] = useState<{ title: string; body: string } | null>(null);
  const pair = value as TemplatePair | undefined;
  const run = async () => {
    if (!pair) return;
    setShown(null);
    const title = String(form.getFieldValue('title') ?? '');
    const body = String(form.getFieldValue('body') ?? '');
    try {
      setShown((await preview({ ...pair, title, body }).unwrap()).data);
    } catch (error) {
      showFieldErrors(form, fieldErrorsOf(error), ['title', 'body']);
    }
  };
  return (
    <Space id={id} orientation="vertical" style={{ width: '100%' }}>
      <Button onClick={() => void run()} loading={isLoading}>
        预览
      </Button>
      {shown && (
        <div data-testid="template-preview" style={{ border: '1px solid #f0f0f0', borderRadius: 6, padding: 12 }}>
          <Typography.Text strong>{shown.title}</Typography.Text>
          <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', marginBottom: 0, marginTop: 8 }}>{shown.body}</Typography.Paragraph>
        </div>
      )}
    </Space>
  );
}

export const templateFields: FieldConfig[] = [
  { name: 'title', label: '标题模板', kind: 'text', required: true, max: TEMPLATE_TITLE_MAX },
  { name: 'body', label: '正文模板', kind: 'textarea', required: true, max: TEMPLATE_BODY_MAX, extra: `钉钉、企业微信、飞书按 Markdown 显示。${PLACEHOLDER_HINT}` },
  { name: 'preview', label: '预览', kind: 'select', control: TemplatePreview, extra: '用示例告警填入占位符' },
];

export const templateToForm = (row: TemplateRow): FormValues => ({ title: row.title, body: row.body, preview: { channelType: row.channelType, kind: row.kind } });

export const templateFromForm = {
  edit: (values: FormValues, row: TemplateRow): BodyOf<'/monitor/template/edit'> => ({
    channelType: row.channelType as PreviewBody['channelType'],
    kind: row.kind as PreviewBody['kind'],
    title: values.title as string,
    body: values.body as string,
    version: row.version,
  }),
};
