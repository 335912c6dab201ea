/** 重置密码: an administrator sets a new password for another user; the server msg is the toast. */
import { Form, Modal } from 'antd';

import { FormField } from '../../../components/list-screen';
import { toast } from '../../../lib/toast';
import { validateForm } from '../../../lib/validate-form';
import { useResetUserPasswordMutation } from './api';
import { passwordField, type UserRow } from './config';

const newPasswordField = passwordField('新密码');

interface PasswordResetDialogProps {
  user: UserRow;
  onClose: () => void;
}

export function PasswordResetDialog({ user, onClose }: PasswordResetDialogProps) {
  const [form] = Form.useForm<{ password: string }>();
  const [resetPassword, { isLoading }] = useResetUserPasswordMutation();
  const submit = async () => {
    const values = await validateForm(form);
    if (!values) return;
    const envelope = await resetPassword({ id: user.id, password: values.password })
      .unwrap()
      .catch(() => null);
    if (!envelope) return;
    toast.success(envelope.msg);
    form.resetFields();
    onClose();
  };
  return (
    <Modal open title={`重置密码：${user.userName}`} confirmLoading={isLoading} okText="保存" cancelText="取消" onOk={submit} onCancel={onClose}>
      <Form form={form} name="user-password-reset" layout="vertical">
        <FormField field={newPasswordField} />
      </Form>
    </Modal>
  );
}
