/**
 * One operation record in full: who, what, on which record, the outcome; for an edit the changed
 * fields before and after; the request parameters as recorded (secrets already redacted by the
 * server); and the record's place in the hash chain. Everything renders as text.
 */
import { Descriptions, Spin, Table, Typography, type TableColumnType } from 'antd';

import type { DataOf } from '../../../../contract';
import { DictTag } from '../../../components/list-screen';
import { formatTime } from '../../../lib/time';
import { useOperationDetailQuery } from './api';
import { OperatorCell, OUTCOME_COLORS, TargetCell, type OperationRow } from './config';

type Change = DataOf<'/monitor/operation/detail'>['changes'][number];

/** A recorded value as text: blanks are named, structures shown as JSON. */
export function valueText(value: unknown): string {
  if (value === null || value === undefined || value === '') return '（空）';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

const changeColumns: TableColumnType<Change>[] = [
  { title: '字段', dataIndex: 'title', width: 140 },
  { title: '修改前', dataIndex: 'before', render: (value: unknown) => <Typography.Text type="danger">{valueText(value)}</Typography.Text> },
  { title: '修改后', dataIndex: 'after', render: (value: unknown) => <Typography.Text type="success">{valueText(value)}</Typography.Text> },
];

const Section = ({ children }: { children: string }) => (
  <Typography.Title level={5} style={{ marginTop: 24 }}>
    {children}
  </Typography.Title>
);

export function OperationDetail({ row }: { row: OperationRow }) {
  const { data } = useOperationDetailQuery({ id: row.id });
  if (!data) return <Spin />;
  return (
    <>
      <Descriptions
        size="small"
        bordered
        column={2}
        items={[
          { key: 'at', label: '时间', children: formatTime(data.at) },
          { key: 'operator', label: '操作人', children: <OperatorCell row={data} /> },
          { key: 'module', label: '模块', children: data.module },
          { key: 'action', label: '操作', children: data.action },
          { key: 'target', label: '操作对象', span: 2, children: <TargetCell row={data} /> },
          { key: 'outcome', label: '结果', children: <DictTag field="outcome" value={data.outcome} colors={OUTCOME_COLORS} /> },
          { key: 'code', label: '返回码', children: data.code },
          { key: 'msg', label: '信息', span: 2, children: data.msg },
          { key: 'path', label: '接口', children: data.path },
          { key: 'ip', label: 'IP', children: data.ip },
          { key: 'duration', label: '耗时', children: `${data.durationMs} ms` },
        ]}
      />
      {data.changes.length > 0 && (
        <>
          <Section>修改内容</Section>
          <Table<Change> size="small" rowKey="field" columns={changeColumns} dataSource={data.changes} pagination={false} />
        </>
      )}
      <Section>请求参数</Section>
      <Typography>
        <pre style={{ maxHeight: 360, overflow: 'auto' }}>{data.params == null ? '（无）' : JSON.stringify(data.params, null, 2)}</pre>
      </Typography>
      <Section>完整性</Section>
      <Descriptions
        size="small"
        column={1}
        items={[
          { key: 'hash', label: '本条哈希', children: <Typography.Text code>{data.hash}</Typography.Text> },
          { key: 'prev', label: '上一条哈希', children: <Typography.Text code>{data.prevHash}</Typography.Text> },
        ]}
      />
    </>
  );
}
