/** The rule form's own inputs: several alarm types, several channels, the unit, and the escalation steps. */
import { Button, InputNumber, Select, Space } from 'antd';

import { ALARM_TYPE_LABELS } from '../../../../contract/constants';
import { type CustomControlProps } from '../../../components/list-screen';
import { orgTreeSelectFor } from '../../../components/org-tree';
import { useChannelOptions } from './channel-options';

const ALARM_TYPE_OPTIONS = Object.entries(ALARM_TYPE_LABELS).map(([value, label]) => ({ value, label }));

export function AlarmTypesInput({ id, value, onChange }: CustomControlProps) {
  return <Select id={id} mode="multiple" allowClear value={(value as string[] | undefined) ?? []} onChange={onChange} options={ALARM_TYPE_OPTIONS} placeholder="全部类型" />;
}

export function ChannelsInput({ id, value, onChange }: CustomControlProps) {
  const options = useChannelOptions();
  return (
    <Select
      id={id}
      mode="multiple"
      allowClear
      value={(value as number[] | undefined) ?? []}
      onChange={onChange}
      options={options}
      placeholder="请选择通知渠道"
      optionFilterProp="label"
    />
  );
}

/**
 * The organisation unit (with its subtree) whose devices' alarms the rule takes: the shared unit
 * picker on the rule screen's own 可选单位 (a role without it sees the unit the rule already names
 * only by its id). Cleared is null: the contract's "every unit".
 */
export const OrgUnitInput = orgTreeSelectFor('monitor/rule', '全部单位');

interface Step {
  afterMinutes: number | null;
  channelIds: number[];
}

/** Steps in order: after N minutes unacknowledged, these channels. */
export function EscalationInput({ id, value, onChange }: CustomControlProps) {
  const options = useChannelOptions();
  const steps = (value as Step[] | undefined) ?? [];
  const change = (index: number, patch: Partial<Step>) => onChange?.(steps.map((step, at) => (at === index ? { ...step, ...patch } : step)));
  return (
    <Space id={id} orientation="vertical" style={{ width: '100%' }}>
      {steps.map((step, index) => (
        <Space key={index} wrap>
          <Space.Compact>
            <InputNumber
              aria-label={`第 ${index + 1} 级等待分钟数`}
              min={1}
              max={10_080}
              precision={0}
              value={step.afterMinutes}
              onChange={(afterMinutes) => change(index, { afterMinutes })}
            />
            <Space.Addon>分钟未确认</Space.Addon>
          </Space.Compact>
          <Select
            aria-label={`第 ${index + 1} 级升级渠道`}
            mode="multiple"
            style={{ minWidth: 200 }}
            value={step.channelIds}
            onChange={(channelIds: number[]) => change(index, { channelIds })}
            options={options}
            placeholder="升级到的渠道"
            optionFilterProp="label"
          />
          <Button type="link" danger onClick={() => onChange?.(steps.filter((_, at) => at !== index))}>
            删除
          </Button>
        </Space>
      ))}
      <Button type="dashed" onClick={() => onChange?.([...steps, { afterMinutes: null, channelIds: [] }])}>
        添加升级步骤
      </Button>
    </Space>
  );
}
