/**
 * 接口文档 (monitor/api-docs): the OpenAPI description of the API for staff and integrators,
 * browsable by area and menu, searchable by path or name; the raw document can be downloaded as
 * JSON for tools that read OpenAPI.
 */
import { Alert, Button, Collapse, Descriptions, Empty, Input, Space, Spin, Table, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';

import { useReadApiDocumentQuery } from './api';
import { answerSchema, groupOperations, requestFields, securityText, type FieldRow, type Operation, type OpenApiDocument } from './document';

const METHOD_COLORS: Record<string, string> = { GET: 'green', POST: 'blue' };

const fieldColumns = [
  { title: '字段', dataIndex: 'name', key: 'name', render: (name: string) => <Typography.Text code>{name}</Typography.Text> },
  { title: '类型', dataIndex: 'type', key: 'type' },
  { title: '必填', dataIndex: 'required', key: 'required', render: (required: boolean) => (required ? '是' : '否') },
  { title: '名称', dataIndex: 'title', key: 'title' },
  { title: '规则', dataIndex: 'rule', key: 'rule' },
];

function OperationDetail({ operation }: { operation: Operation }) {
  const fields = requestFields(operation.operation);
  const answer = answerSchema(operation.operation);
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Descriptions size="small" column={1} bordered>
        <Descriptions.Item label="认证">{securityText(operation.operation)}</Descriptions.Item>
        <Descriptions.Item label="应答">{operation.operation.description ?? ''}</Descriptions.Item>
      </Descriptions>
      <Typography.Text strong>请求字段</Typography.Text>
      {fields.length > 0 ? (
        <Table<FieldRow> size="small" rowKey="name" pagination={false} columns={fieldColumns} dataSource={fields} />
      ) : (
        <Typography.Text type="secondary">无</Typography.Text>
      )}
      {answer && (
        <>
          <Typography.Text strong>应答 data</Typography.Text>
          <pre style={{ maxHeight: 320, overflow: 'auto', background: '#fafafa', padding: 8, fontSize: 12, margin: 0 }}>{JSON.stringify(answer, null, 2)}</pre>
        </>
      )}
    </Space>
  );
}

function download(document: OpenApiDocument) {
  const url = URL.createObjectURL(new Blob([JSON.stringify(document, null, 2)], { type: 'application/json' }));
  const link = Object.assign(window.document.createElement('a'), { href: url, download: 'openapi.json' });
  link.click();
  URL.revokeObjectURL(url);
}

export default function ApiDocsScreen() {
  const { data: document, isFetching, isError, refetch } = useReadApiDocumentQuery(undefined, { refetchOnMountOrArgChange: true });
  const [search, setSearch] = useState('');
  const groups = useMemo(() => (document ? groupOperations(document, search) : []), [document, search]);
  const count = groups.reduce((sum, group) => sum + group.operations.length, 0);

  if (isError) return <Alert type="error" showIcon title="接口文档加载失败" action={<Button onClick={() => void refetch()}>重试</Button>} />;
  if (!document)
    return (
      <Spin spinning={isFetching} description="加载中…">
        <div style={{ minHeight: 120 }} />
      </Spin>
    );
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
        {document.info.title}（OpenAPI {document.openapi}）：{document.info.description}
      </Typography.Paragraph>
      <Space wrap>
        <Input.Search
          allowClear
          placeholder="按路径或名称搜索"
          aria-label="搜索接口"
          onSearch={setSearch}
          onChange={(event) => setSearch(event.target.value)}
          style={{ width: 320 }}
        />
        <Typography.Text type="secondary">共 {count} 个接口</Typography.Text>
        <Button onClick={() => download(document)}>下载 openapi.json</Button>
      </Space>
      {groups.length === 0 ? (
        <Empty description="没有匹配的接口" />
      ) : (
        groups.map((group) => (
          <section key={group.tag} aria-label={group.tag}>
            <Typography.Title level={5}>{group.tag}</Typography.Title>
            <Collapse
              size="small"
              items={group.operations.map((operation) => ({
                key: operation.key,
                label: (
                  <Space>
                    <Tag color={METHOD_COLORS[operation.method]}>{operation.method}</Tag>
                    <Typography.Text code>{operation.path}</Typography.Text>
                    <span>{operation.summary}</span>
                  </Space>
                ),
                children: <OperationDetail operation={operation} />,
              }))}
            />
          </section>
        ))
      )}
    </Space>
  );
}
