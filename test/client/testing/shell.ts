/** Readings of the shell the shell tests share (tabs, breadcrumb), and the screens they open. */
import { http } from 'msw';

import { api, ok } from './handlers';
import { userHandlers } from './handlers/user';
import type { RequestLog } from './request-log';

export const tabTitles = () => Array.from(document.querySelectorAll('.shell-tabs .ant-tabs-tab')).map((tab) => tab.textContent);
export const activeTab = () => document.querySelector('.shell-tabs .ant-tabs-tab-active')?.textContent;
export const breadcrumb = () => Array.from(document.querySelectorAll('.shell-breadcrumb .ant-breadcrumb-link')).map((item) => item.textContent);

const NO_ROWS = { records: [], current: 1, size: 20, total: 0 };

/**
 * The screens the shell tests open besides the panel: the users (recorded in `log`), an empty role
 * list and an empty device screen (no devices, no locations, a server without MQTT): every call
 * they make is answered.
 */
export const shellScreenHandlers = (log: RequestLog) => [
  ...userHandlers(log),
  http.post(api('/sys/role/inquire'), () => ok(NO_ROWS)),
  http.post(api('/hotel/device/inquire'), () => ok(NO_ROWS)),
  http.get(api('/hotel/device/location/tree'), () => ok([])),
  http.get(api('/sys/capabilities'), () => ok({ mqtt: false })),
];
