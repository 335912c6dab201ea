/**
 * 通知规则 (monitor/rule): which alarms go to which channels, with quiet hours and escalation steps;
 * 删除 after a confirmation.
 */
import { Button, Popconfirm } from 'antd';

import { ListScreen, savedMsg, useGranted } from '../../../components/list-screen';
import { toast } from '../../../lib/toast';
import { useCreateRuleMutation, useEditRuleMutation, useInquireRulesQuery, useRemoveRuleMutation } from './api';
import { useChannelNames } from './channel-options';
import { ruleColumns, ruleCreateDefaults, ruleFields, ruleFilters, ruleFromForm, ruleToForm, type RuleRow } from './config';

export const RULE_VIEW = 'monitor/rule';

function RemoveButton({ rule }: { rule: RuleRow }) {
  const [remove, { isLoading }] = useRemoveRuleMutation();
  const run = async () => {
    const envelope = await remove({ id: rule.id })
      .unwrap()
      .catch(() => null);
    if (envelope) toast.success(envelope.msg);
  };
  return (
    <Popconfirm title={`删除规则“${rule.name}”？等待中的升级也会取消。`} onConfirm={() => void run()}>
      <Button type="link" size="small" danger loading={isLoading}>
        删除
      </Button>
    </Popconfirm>
  );
}

export default function MonitorRuleScreen() {
  const mayRemove = useGranted(RULE_VIEW, 'api_removal');
  const channelNames = useChannelNames();
  return (
    <ListScreen
      view={RULE_VIEW}
      noun="通知规则"
      useInquire={useInquireRulesQuery}
      filters={ruleFilters}
      columns={ruleColumns(channelNames)}
      fields={ruleFields}
      createDefaults={ruleCreateDefaults}
      toForm={ruleToForm}
      fromForm={ruleFromForm}
      create={{ useMutation: useCreateRuleMutation, successMsg: savedMsg }}
      edit={{ useMutation: useEditRuleMutation, successMsg: savedMsg }}
      rowActions={(rule) => mayRemove && <RemoveButton rule={rule} />}
    />
  );
}
