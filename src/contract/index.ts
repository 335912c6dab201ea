/**
 * The whole API contract: endpoint key -> request and answer schemas. A key is the path under
 * /api, prefixed with "GET " for the GET helpers (docs/API.md: every call is a POST with a JSON
 * body, except a few reads that are GETs).
 */
import type { EndpointSpec, BodyOfSpec, DataOfSpec } from './endpoint';
import { verifyEndpoints } from './sys/verify';
import { panelEndpoints } from './sys/panel';
import { userEndpoints } from './sys/user';
import { orgEndpoints } from './sys/org';
import { roleEndpoints } from './sys/role';
import { menuEndpoints } from './sys/menu';
import { resourceEndpoints } from './sys/resource';
import { dictEndpoints } from './sys/dict';
import { scheduleEndpoints } from './sys/schedule';
import { deviceEndpoints } from './hotel/device';
import { advancedEndpoints } from './hotel/advanced';
import { locationEndpoints } from './hotel/location';
import { alarmEndpoints } from './hotel/alarm';
import { operationEndpoints } from './monitor/operation';
import { loginEndpoints } from './monitor/login';
import { onlineEndpoints } from './monitor/online';
import { channelEndpoints } from './monitor/channel';
import { ruleEndpoints } from './monitor/rule';
import { maintenanceEndpoints } from './monitor/maintenance';
import { messageEndpoints } from './monitor/message';
import { templateEndpoints } from './monitor/template';
import { opsEndpoints } from './ops';
import { eventEndpoints } from './events';
import { pickerEndpoints } from './pickers';

export const contract = {
  ...verifyEndpoints,
  ...panelEndpoints,
  ...userEndpoints,
  ...orgEndpoints,
  ...roleEndpoints,
  ...menuEndpoints,
  ...resourceEndpoints,
  ...dictEndpoints,
  ...scheduleEndpoints,
  ...deviceEndpoints,
  ...advancedEndpoints,
  ...locationEndpoints,
  ...alarmEndpoints,
  ...operationEndpoints,
  ...loginEndpoints,
  ...onlineEndpoints,
  ...channelEndpoints,
  ...ruleEndpoints,
  ...templateEndpoints,
  ...maintenanceEndpoints,
  ...messageEndpoints,
  ...opsEndpoints,
  ...eventEndpoints,
  ...pickerEndpoints,
} satisfies Record<string, EndpointSpec>;

export type Contract = typeof contract;
export type EndpointKey = keyof Contract;
export type BodyOf<K extends EndpointKey> = BodyOfSpec<Contract[K]>;
export type DataOf<K extends EndpointKey> = DataOfSpec<Contract[K]>;

export * from './constants';
export type { LiveEvent, LiveEventKind } from './events';
export type { PickerKeyOf } from './pickers';
