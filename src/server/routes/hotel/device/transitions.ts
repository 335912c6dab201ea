/**
 * The one place where a device's online/offline change takes effect beyond the flag itself. The
 * write paths (the heartbeat that brings a device back, the offline sweep) detect the flip in the
 * database, exactly once per change, and hand it here; this module decides what the change means
 * (today: a status record in the operation log).
 */
import type { FastifyInstance } from 'fastify';
import { recordDeviceStatus, type StatusDevice } from '../../../plugins/app/audit';

export type TransitionCause = 'heartbeat' | 'sweep';

export interface DeviceTransitions {
  devices: StatusDevice[];
  /** 1: came online; 0: went offline. */
  to: 0 | 1;
  cause: TransitionCause;
  at: number;
}

export async function applyDeviceTransitions(app: FastifyInstance, { devices, to, at }: DeviceTransitions): Promise<void> {
  if (devices.length === 0) return;
  await recordDeviceStatus(app, devices, to === 1 ? 0 : 1, to, at);
}
