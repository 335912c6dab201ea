/**
 * Operability endpoints: for load balancers, monitoring and integrators rather than for screens.
 * None of them is in the operation log: probes come every few seconds, and none changes anything.
 */
import { Type } from '@sinclair/typebox';
import { get, type AuditMeta } from './endpoint';

const unrecorded: AuditMeta = { kind: 'none' };

/** The process answers: nothing more is checked (a liveness probe must not fail with the database). */
export const Health = Type.Object({ status: Type.Literal('ok'), instance: Type.String(), uptimeSeconds: Type.Integer() });

/** The database answers and holds every migration this build knows: the instance may take traffic. */
export const Readiness = Type.Object({
  database: Type.String(),
  migrations: Type.Object({ applied: Type.Integer(), known: Type.Integer() }),
});

export const opsEndpoints = {
  'GET /healthz': get(null, Health, unrecorded),
  'GET /readyz': get(null, Readiness, unrecorded),
  /** Prometheus text exposition, for a scraper holding METRICS_TOKEN. */
  'GET /metrics': { ...get(null, Type.Null(), unrecorded), transport: 'download' },
  /** The OpenAPI 3.1 description of this API, for signed-in staff (the 接口文档 screen) and integrators. */
  'GET /openapi.json': { ...get(null, Type.Null(), { kind: 'read' }), transport: 'download' },
} as const;
