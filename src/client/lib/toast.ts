/**
 * One antd message instance for the whole app, limited to one toast on screen at a time (docs/client.md, Toasts).
 * `useToastHolder` is rendered once inside the providers; the base query and the screens call
 * `toast.success` / `toast.error` from anywhere, React or not.
 */
import { message } from 'antd';
import { useEffect, type ReactElement } from 'react';

type MessageInstance = ReturnType<typeof message.useMessage>[0];

let instance: MessageInstance | null = null;

export const toast = {
  success(text: string): void {
    void instance?.success(text);
  },
  error(text: string): void {
    void instance?.error(text);
  },
};

export function useToastHolder(): ReactElement {
  const [messageApi, holder] = message.useMessage({ maxCount: 1 });
  useEffect(() => {
    instance = messageApi;
    return () => {
      if (instance === messageApi) instance = null;
    };
  }, [messageApi]);
  return holder;
}
