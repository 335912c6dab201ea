/**
 * Asks before an action runs, with an optional note where the action takes one (e.g. 确认 of an
 * alarm). When the server refused rows of a batch, lists each with its reason and stays open.
 */
import { Alert, Form, Input, Modal, Space, Typography } from 'antd';
import { useState } from 'react';

import type { FieldError } from '../../../contract/constants';

export interface NoteConfirmDialogProps {
  title: string;
  question: string;
  /** The note's label and length limit; no note field without it. */
  note?: { label: string; max: number };
  danger?: boolean;
  busy: boolean;
  /** Rows the server refused, each with its reason. */
  refused?: readonly FieldError[];
  /** Runs the action with the note as typed (trimmed; empty when none). */
  onOk: (note: string) => void;
  onCancel: () => void;
}

export function NoteConfirmDialog({ title, question, note, danger, busy, refused = [], onOk, onCancel }: NoteConfirmDialogProps) {
  const [text, setText] = useState('');
  return (
    <Modal open title={title} okText="确定" cancelText="取消" okButtonProps={{ danger }} confirmLoading={busy} onOk={() => onOk(text.trim())} onCancel={onCancel}>
      <Space orientation="vertical" style={{ width: '100%' }}>
        <Typography.Text>{question}</Typography.Text>
        {note && (
          <Form layout="vertical">
            <Form.Item label={`${note.label}（选填）`} htmlFor="confirm-note" style={{ marginBottom: 0 }}>
              <Input.TextArea id="confirm-note" value={text} maxLength={note.max} showCount rows={3} onChange={(event) => setText(event.target.value)} />
            </Form.Item>
          </Form>
        )}
        {refused.length > 0 && (
          <Alert
            type="error"
            showIcon
            title="以下各项不能执行，未做任何更改"
            description={
              <ul style={{ margin: 0, paddingInlineStart: 20 }}>
                {refused.map((item) => (
                  <li key={item.field}>{item.msg}</li>
                ))}
              </ul>
            }
          />
        )}
      </Space>
    </Modal>
  );
}
