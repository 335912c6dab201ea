/** 数据字典 (sys/dict): entries grouped by code, and their bindings to field resources. */
import { Button } from 'antd';
import { useState } from 'react';

import { ListScreen, Permitted } from '../../../components/list-screen';
import { useCreateDictMutation, useEditDictMutation, useInquireDictsQuery } from './api';
import { DictBindDialog } from './bind-dialog';
import { dictColumns, dictCreateDefaults, dictFields, dictFilters, type DictRow } from './config';

export default function SysDictScreen() {
  const [binding, setBinding] = useState<DictRow | null>(null);
  return (
    <>
      <ListScreen
        view="sys/dict"
        noun="字典"
        useInquire={useInquireDictsQuery}
        filters={dictFilters}
        columns={dictColumns}
        fields={dictFields}
        createDefaults={dictCreateDefaults}
        create={{ useMutation: useCreateDictMutation }}
        edit={{ useMutation: useEditDictMutation }}
        exportTo={{ endpoint: '/sys/dict/export', fileName: '数据字典.xlsx' }}
        rowActions={(dict) => (
          // The dialog lists the bindable resources and binds or unbinds them.
          <Permitted view="sys/dict" resource={['api_resources', 'api_bind', 'api_unbind']}>
            <Button type="link" size="small" onClick={() => setBinding(dict)}>
              绑定资源
            </Button>
          </Permitted>
        )}
      />
      {binding && <DictBindDialog dict={binding} onClose={() => setBinding(null)} />}
    </>
  );
}
