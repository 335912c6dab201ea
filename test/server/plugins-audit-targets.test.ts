/**
 * The audit plugin's registry of targets (plugins/app/audit-targets.ts): each feature registers how
 * its records appear in the audit trail, the plugin itself knows no feature, and an app whose route
 * names a target no feature registered does not start.
 */
import Fastify from 'fastify';
import type { Kysely } from 'kysely';
import { contract } from '../../src/contract';
import type { AuditTargetType, EndpointSpec } from '../../src/contract/endpoint';
import { Audit, auditPlugin } from '../../src/server/plugins/app/audit';
import { AuditTargets } from '../../src/server/plugins/app/audit-targets';
import type { Database } from '../../src/server/db/schema';
import { describeOnEachDatabase } from './support/harness';

const someTarget = { schema: {}, load: () => Promise.resolve(undefined), label: () => '' } as never;

describe('audit target registry', () => {
  it('refuses a second registration of one type', () => {
    const targets = new AuditTargets();
    targets.register('user', someTarget);
    expect(() => targets.register('user', someTarget)).toThrow('审计对象 user 重复登记');
  });

  it('names the first type nobody registered', () => {
    const targets = new AuditTargets();
    targets.register('user', someTarget);
    expect(() => targets.assertRegistered(['user', 'role'])).toThrow(/审计对象 role 未登记/);
  });

  it('keeps an app whose route names an unregistered target from starting', async () => {
    const app = Fastify();
    app.decorate('audit', new Audit({} as Kysely<Database>, app.log));
    await app.register(auditPlugin);
    app.post('/api/sys/user/edit', { config: { endpoint: '/sys/user/edit' } }, () => ({}));
    await expect(app.ready()).rejects.toThrow(/审计对象 user 未登记/);
  });
});

describeOnEachDatabase('audit targets of the built app', (ctx) => {
  it('has every target the contract names registered by its feature', () => {
    const named = new Set(
      Object.values(contract as Record<string, EndpointSpec>)
        .map((spec) => spec.audit?.target)
        .filter((target): target is AuditTargetType => target !== undefined),
    );
    expect(named.size).toBeGreaterThanOrEqual(11);
    for (const target of named) expect(ctx().app.audit.targets.get(target)).toBeDefined();
  });
});
