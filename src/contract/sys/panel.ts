/** The dashboard's figures (sys/panel). */
import { Type } from '@sinclair/typebox';
import { postEmpty } from '../endpoint';

export const PanelData = Type.Object({
  users: Type.Integer(),
  usersEnabled: Type.Integer(),
  roles: Type.Integer(),
  devices: Type.Integer(),
  devicesOnline: Type.Integer(),
  devicesOffline: Type.Integer(),
  schedulesEnabled: Type.Integer(),
  schedulesFailedLastRun: Type.Integer(),
  activeSessions: Type.Integer(),
});

export const panelEndpoints = {
  '/sys/panel/inquire': postEmpty(PanelData),
};
