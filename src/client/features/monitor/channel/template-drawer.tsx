/** 消息模板: every channel type's message templates, edited in the list block's own dialog, with 恢复默认 for an edited one. */
import { Button, Drawer, Popconfirm } from 'antd';

import type { BodyOf } from '../../../../contract';
import { ListScreen, Permitted, savedMsg, type PagedQueryHook } from '../../../components/list-screen';
import type { ViewName } from '../../../config/views';
import { toast } from '../../../lib/toast';
import { useEditTemplateMutation, useInquireTemplatesQuery, useResetTemplateMutation } from './api';
import { templateColumns, templateFields, templateFilters, templateFromForm, templateToForm, type TemplateRow } from './template-config';

// Typed once here: the block cannot infer a paged query's argument from a generic RTK hook.
const useTemplatePage: PagedQueryHook<BodyOf<'/monitor/template/inquire'>, TemplateRow> = useInquireTemplatesQuery;

function ResetButton({ template, view }: { template: TemplateRow; view: ViewName }) {
  const [reset, { isLoading }] = useResetTemplateMutation();
  const run = async () => {
    const envelope = await reset({
      channelType: template.channelType as BodyOf<'/monitor/template/reset'>['channelType'],
      kind: template.kind as BodyOf<'/monitor/template/reset'>['kind'],
    })
      .unwrap()
      .catch(() => null);
    if (envelope) toast.success(envelope.msg);
  };
  return (
    <Permitted view={view} resource="api_templateReset">
      <Popconfirm title="恢复为系统默认模板？" onConfirm={() => void run()}>
        <Button type="link" size="small" loading={isLoading}>
          恢复默认
        </Button>
      </Popconfirm>
    </Permitted>
  );
}

export function TemplateDrawer({ view, onClose }: { view: ViewName; onClose: () => void }) {
  return (
    <Drawer open title="消息模板" size={960} onClose={onClose}>
      <ListScreen
        view={view}
        noun="消息模板"
        useInquire={useTemplatePage}
        filters={templateFilters}
        columns={templateColumns}
        fields={templateFields}
        toForm={templateToForm}
        fromForm={templateFromForm}
        edit={{ useMutation: useEditTemplateMutation, resource: 'api_templateEdit', successMsg: savedMsg }}
        rowActions={(template) => template.custom === 1 && <ResetButton template={template} view={view} />}
      />
    </Drawer>
  );
}
