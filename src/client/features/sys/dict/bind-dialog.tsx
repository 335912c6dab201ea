/**
 * 绑定资源: the field resources a dictionary entry can be bound to, with a 绑定/解绑 toggle per row.
 * A bound entry becomes an option and a label of that field on the resource's screen.
 */
import { Button, Modal, Tag } from 'antd';

import type { BodyOf, DataOf } from '../../../../contract';
import { FilterForm, PagedTable, useInquire, type ColumnConfig, type FieldConfig, type PagedQueryHook } from '../../../components/list-screen';
import { toast } from '../../../lib/toast';
import { useBindableResourcesQuery, useBindDictMutation, useUnbindDictMutation } from './api';
import type { DictRow } from './config';

type BindableRow = DataOf<'/sys/resource/inquires'>['records'][number];

/** Named with its request type: its params are required, which TypeScript cannot infer through RTK's hook. */
const useBindablePage: PagedQueryHook<BodyOf<'/sys/resource/inquires'>, BindableRow> = useBindableResourcesQuery;

const resourceFilters: FieldConfig[] = [{ name: 'name', label: '资源名称', kind: 'text', max: 32 }];

function BindToggle({ resource, dict }: { resource: BindableRow; dict: DictRow }) {
  const [bind, binding] = useBindDictMutation();
  const [unbind, unbinding] = useUnbindDictMutation();
  const bound = resource.bound === 1;
  const toggle = async () => {
    const body = { resourceId: resource.id, dictId: dict.id };
    const envelope = await (bound ? unbind(body) : bind(body)).unwrap().catch(() => null);
    if (envelope) toast.success(envelope.msg);
  };
  return (
    <Button type="link" size="small" danger={bound} loading={binding.isLoading || unbinding.isLoading} onClick={toggle}>
      {bound ? '解绑' : '绑定'}
    </Button>
  );
}

interface DictBindDialogProps {
  dict: DictRow;
  onClose: () => void;
}

export function DictBindDialog({ dict, onClose }: DictBindDialogProps) {
  const inquiry = useInquire(useBindablePage, { fixedParams: { dictId: dict.id } });
  const columns: ColumnConfig<BindableRow>[] = [
    { title: '菜单', dataIndex: 'menuName' },
    { title: '资源名称', dataIndex: 'name' },
    { title: '资源类型', dataIndex: 'type' },
    {
      title: '绑定状态',
      dataIndex: 'bound',
      render: (bound: number) => (bound === 1 ? <Tag color="blue">已绑定</Tag> : <Tag>未绑定</Tag>),
    },
    { title: '操作', key: 'actions', render: (_value, resource) => <BindToggle resource={resource} dict={dict} /> },
  ];
  return (
    <Modal open title={`绑定资源：${dict.label}（${dict.code} = ${dict.value}）`} width={800} footer={null} onCancel={onClose}>
      <FilterForm fields={resourceFilters} onSearch={inquiry.search} />
      <PagedTable inquiry={inquiry} columns={columns} />
    </Modal>
  );
}
