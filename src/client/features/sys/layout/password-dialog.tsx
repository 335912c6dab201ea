/**
 * Change one's own password. The server checks the old one and signs out the other sessions; its
 * msg is the success toast.
 */
import { Form, Input, Modal } from 'antd';

import { PASSWORD_MAX, PASSWORD_MIN } from '../../../../contract/constants';
import { toast } from '../../../lib/toast';
import { validateForm } from '../../../lib/validate-form';
import { useChangePasswordMutation } from './api';

interface PasswordForm {
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
}

interface PasswordDialogProps {
  open: boolean;
  onClose: () => void;
}

export function PasswordDialog({ open, onClose }: PasswordDialogProps) {
  const [form] = Form.useForm<PasswordForm>();
  const [changePassword, { isLoading }] = useChangePasswordMutation();

  function close() {
    form.resetFields();
    onClose();
  }

  async function submit() {
    const values = await validateForm(form);
    if (!values) return;
    const result = await changePassword({ oldPassword: values.oldPassword, newPassword: values.newPassword });
    if (result.error) return;
    toast.success(result.data.msg);
    close();
  }

  return (
    <Modal title="修改密码" open={open} okText="确定" cancelText="取消" confirmLoading={isLoading} onOk={() => void submit()} onCancel={close} destroyOnHidden forceRender>
      <Form<PasswordForm> form={form} layout="vertical" name="password" preserve={false}>
        <Form.Item label="原密码" name="oldPassword" rules={[{ required: true, message: '请输入原密码' }]}>
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Form.Item
          label="新密码"
          name="newPassword"
          rules={[
            { required: true, message: '请输入新密码' },
            { min: PASSWORD_MIN, max: PASSWORD_MAX, message: `新密码长度应为 ${PASSWORD_MIN}-${PASSWORD_MAX} 位` },
          ]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          label="确认新密码"
          name="confirmPassword"
          dependencies={['newPassword']}
          rules={[
            { required: true, message: '请再次输入新密码' },
            ({ getFieldValue }) => ({
              validator: (_rule, value) => (!value || value === getFieldValue('newPassword') ? Promise.resolve() : Promise.reject(new Error('两次输入的新密码不一致'))),
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
