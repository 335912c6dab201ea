/** Success toasts SPEC 8 fixes for several screens, rather than the server msg. */
export const SAVED_MSG = '保存成功';

/** For `successMsg` of screens whose saves toast 保存成功 (schedule, device, advanced). */
export const savedMsg = (): string => SAVED_MSG;
