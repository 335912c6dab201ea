/**
 * Menu element -> lazily loaded screen, one webpack chunk each. The Record type makes a view named
 * in config/views.ts without a screen here a type error.
 */
import { lazy } from 'react';

import type { ViewRegistry } from '../config/views';

export const viewRegistry: ViewRegistry = {
  'hotel/advanced': lazy(() => import(/* webpackChunkName: "view-hotel-advanced" */ '../features/hotel/advanced')),
  'hotel/alarm': lazy(() => import(/* webpackChunkName: "view-hotel-alarm" */ '../features/hotel/alarm')),
  'hotel/device': lazy(() => import(/* webpackChunkName: "view-hotel-device" */ '../features/hotel/device')),
  'hotel/location': lazy(() => import(/* webpackChunkName: "view-hotel-location" */ '../features/hotel/location')),
  'monitor/api-docs': lazy(() => import(/* webpackChunkName: "view-monitor-api-docs" */ '../features/monitor/api-docs')),
  'monitor/channel': lazy(() => import(/* webpackChunkName: "view-monitor-channel" */ '../features/monitor/channel')),
  'monitor/login': lazy(() => import(/* webpackChunkName: "view-monitor-login" */ '../features/monitor/login')),
  'monitor/maintenance': lazy(() => import(/* webpackChunkName: "view-monitor-maintenance" */ '../features/monitor/maintenance')),
  'monitor/message': lazy(() => import(/* webpackChunkName: "view-monitor-message" */ '../features/monitor/message')),
  'monitor/online': lazy(() => import(/* webpackChunkName: "view-monitor-online" */ '../features/monitor/online')),
  'monitor/operation': lazy(() => import(/* webpackChunkName: "view-monitor-operation" */ '../features/monitor/operation')),
  'monitor/rule': lazy(() => import(/* webpackChunkName: "view-monitor-rule" */ '../features/monitor/rule')),
  'sys/dict': lazy(() => import(/* webpackChunkName: "view-sys-dict" */ '../features/sys/dict')),
  'sys/menu': lazy(() => import(/* webpackChunkName: "view-sys-menu" */ '../features/sys/menu')),
  'sys/org': lazy(() => import(/* webpackChunkName: "view-sys-org" */ '../features/sys/org')),
  'sys/panel': lazy(() => import(/* webpackChunkName: "view-sys-panel" */ '../features/sys/panel')),
  'sys/role': lazy(() => import(/* webpackChunkName: "view-sys-role" */ '../features/sys/role')),
  'sys/schedule': lazy(() => import(/* webpackChunkName: "view-sys-schedule" */ '../features/sys/schedule')),
  'sys/unknown': lazy(() => import(/* webpackChunkName: "view-sys-unknown" */ '../features/sys/unknown')),
  'sys/user': lazy(() => import(/* webpackChunkName: "view-sys-user" */ '../features/sys/user')),
};
