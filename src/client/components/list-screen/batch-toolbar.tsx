/**
 * The batch actions of a list (declared per screen as `batch`): one button per action, enabled once
 * rows are ticked. Each asks before it runs, with an optional note where the action takes one. The
 * server does all or nothing: when it refuses, the dialog stays open and lists every refused row
 * with its reason (the base query has toasted the summary).
 */
import { Button, Typography } from 'antd';
import { useState } from 'react';

import type { Envelope, FieldError } from '../../../contract/constants';
import { toast } from '../../lib/toast';
import { fieldErrorsOf } from './field-errors';
import { NoteConfirmDialog } from './note-confirm-dialog';
import type { BatchAction, BatchConfig } from './types';

interface BatchToolbarProps<Row, Body, Data> {
  config: BatchConfig<Row, Body, Data>;
  /** The ticked rows' ids. */
  ids: number[];
  /** After a batch ran: the block clears the selection (the list reloads through the mutation's tags). */
  onDone: () => void;
}

export function BatchToolbar<Row, Body, Data>({ config, ids, onDone }: BatchToolbarProps<Row, Body, Data>) {
  const [trigger, state] = config.useMutation();
  const [asking, setAsking] = useState<BatchAction<Body> | null>(null);
  const [refused, setRefused] = useState<FieldError[]>([]);

  const close = () => {
    setAsking(null);
    setRefused([]);
  };
  const run = async (action: BatchAction<Body>, note: string) => {
    let envelope: Envelope<Data>;
    try {
      envelope = await trigger(action.body(ids, note)).unwrap();
    } catch (error) {
      setRefused(fieldErrorsOf(error));
      return;
    }
    toast.success(envelope.msg);
    close();
    onDone();
  };

  return (
    <>
      <Typography.Text type="secondary">{ids.length > 0 ? `已选 ${ids.length} 项` : '勾选行后可批量操作'}</Typography.Text>
      {config.actions.map((action) => (
        <Button key={action.label} danger={action.danger} disabled={ids.length === 0} onClick={() => setAsking(action)}>
          {action.label}
        </Button>
      ))}
      {asking && (
        <NoteConfirmDialog
          title={asking.label}
          question={asking.confirm(ids.length)}
          note={asking.note}
          danger={asking.danger}
          busy={state.isLoading}
          refused={refused}
          onOk={(note) => void run(asking, note)}
          onCancel={close}
        />
      )}
    </>
  );
}
