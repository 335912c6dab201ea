/** The operation log's columns: who did what to which record, with what outcome, from where. */
import { Space, Tag, Typography } from 'antd';

import { useMenuDictContext, type ColumnConfig } from '../../../components/list-screen';
import { formatTime } from '../../../lib/time';
import { nowrap } from '../nowrap';
import { OutcomeTag } from '../outcome-tag';
import { OUTCOME_COLORS, type OperationRow } from './config';

/** The operator's name; a device or a caller without a session is marked as such. */
export function OperatorCell({ row }: { row: Pick<OperationRow, 'operatorName' | 'operatorType'> }) {
  const dict = useMenuDictContext();
  const kind = dict.labelOf('operatorType', row.operatorType);
  // A user needs no mark, nor an operator whose name already says what it is (系统).
  if (row.operatorType === 'user' || kind === row.operatorName) return <>{row.operatorName}</>;
  return (
    <Space size={4}>
      {row.operatorName}
      <Tag>{kind}</Tag>
    </Space>
  );
}

/** e.g. 用户 zhangsan #12, flowing as text; empty for a call that acts on no single record. */
export function TargetCell({ row }: { row: Pick<OperationRow, 'targetType' | 'targetId' | 'targetLabel'> }) {
  const dict = useMenuDictContext();
  if (!row.targetType) return null;
  return (
    <span>
      <Tag>{dict.labelOf('targetType', row.targetType)}</Tag>
      {row.targetLabel}
      {row.targetId && <Typography.Text type="secondary"> #{row.targetId}</Typography.Text>}
    </span>
  );
}

export const operationColumns: ColumnConfig<OperationRow>[] = [
  { title: '时间', dataIndex: 'at', onCell: nowrap, render: (at: number) => formatTime(at) },
  { title: '操作人', dataIndex: 'operatorName', onCell: nowrap, render: (_name: string, row) => <OperatorCell row={row} /> },
  { title: '模块', dataIndex: 'module', onCell: nowrap },
  { title: '操作', dataIndex: 'action', onCell: nowrap },
  { title: '操作对象', key: 'target', render: (_value: unknown, row) => <TargetCell row={row} /> },
  { title: '结果', dataIndex: 'outcome', render: (outcome: string) => <OutcomeTag field="outcome" value={outcome} colors={OUTCOME_COLORS} /> },
  { title: '信息', dataIndex: 'msg' },
  { title: 'IP', dataIndex: 'ip' },
  { title: '耗时', dataIndex: 'durationMs', align: 'right', onCell: nowrap, render: (ms: number) => `${ms} ms` },
];
