/** Success toasts the product fixes for several screens, rather than the server msg (docs/client.md, Toasts). */
export const SAVED_MSG = '保存成功';

/** For `successMsg` of screens whose saves toast 保存成功 (schedule, device, advanced). */
export const savedMsg = (): string => SAVED_MSG;
