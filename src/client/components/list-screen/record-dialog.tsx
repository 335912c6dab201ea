/**
 * The add or edit dialog: a form of the configured fields, saved through the screen's mutation.
 * On success it toasts, resets the form and closes; the list reloads through the mutation's tags.
 * On failure the base query has already toasted the server msg and the dialog stays open, with
 * each refused field's message under that field.
 */
import { Form, Modal } from 'antd';
import { useId } from 'react';

import type { FieldError } from '../../../contract/constants';
import { validateForm } from '../../lib/validate-form';
import { showFieldErrors } from './field-errors';
import { FormField } from './form-field';
import type { FieldConfig, FormValues } from './types';

interface RecordDialogProps {
  title: string;
  open: boolean;
  saving: boolean;
  fields: FieldConfig[];
  initialValues: FormValues;
  /** Resolves true when saved; false or the refused fields when not. */
  onSave: (values: FormValues) => Promise<boolean | readonly FieldError[]>;
  onClose: () => void;
}

export function RecordDialog({ title, open, saving, fields, initialValues, onSave, onClose }: RecordDialogProps) {
  const [form] = Form.useForm<FormValues>();
  // Input ids are the form name plus the field name: a unique name keeps the filter form and both
  // dialogs (which share field names) from sharing ids, so each label points at its own input.
  const formName = useId();
  const submit = async () => {
    const values = await validateForm(form);
    if (!values) return;
    const outcome = await onSave(values);
    if (outcome === true) {
      form.resetFields();
      onClose();
    } else if (outcome !== false) {
      showFieldErrors(
        form,
        outcome,
        fields.map((field) => field.name),
      );
    }
  };
  return (
    <Modal title={title} open={open} confirmLoading={saving} okText="保存" cancelText="取消" onOk={submit} onCancel={onClose} destroyOnHidden>
      <Form form={form} name={formName} layout="vertical" initialValues={initialValues} preserve={false}>
        {fields.map((field) => (
          <FormField key={field.name} field={field} />
        ))}
      </Form>
    </Modal>
  );
}
