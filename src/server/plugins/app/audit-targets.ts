/**
 * The registry of audit targets: for each kind of record the contract's audit metadata names
 * (`target`), how to read one (for an edit's before and after values and a readable label) and which
 * contract schema describes it (for redaction and field titles). Each feature registers its own
 * target as it registers its routes (`audit-target.ts` in its folder); this module knows no feature.
 * The app does not start while a route names a target no feature registered.
 */
import type { Kysely } from 'kysely';
import type { TSchema } from '@sinclair/typebox';
import type { Database } from '../../db/schema';
import type { AuditTargetType } from '../../../contract/endpoint';

export type Loaded = Record<string, unknown>;

export interface AuditTarget<R extends object = Loaded> {
  schema: TSchema;
  /** The record, or undefined when there is none (a read that answers 404 counts as none). */
  load(db: Kysely<Database>, id: number): Promise<R | undefined>;
  label(record: R): string;
  /**
   * The unit the record belongs to (a device's hotel, a user's unit), which scopes the audit records
   * about it; absent for configuration, whose records are scoped by their actor alone.
   */
  unit?(db: Kysely<Database>, record: R): number | null | Promise<number | null>;
}

export class AuditTargets {
  private readonly targets = new Map<AuditTargetType, AuditTarget>();

  register<R extends object>(type: AuditTargetType, target: AuditTarget<R>): void {
    if (this.targets.has(type)) throw new Error(`审计对象 ${type} 重复登记`);
    // The record a target loads is the record its label reads: the pair holds for every R.
    this.targets.set(type, target as unknown as AuditTarget);
  }

  get(type: AuditTargetType): AuditTarget | undefined {
    return this.targets.get(type);
  }

  /** Throws naming the first of `types` that no feature registered. */
  assertRegistered(types: Iterable<AuditTargetType>): void {
    for (const type of types) if (!this.targets.has(type)) throw new Error(`审计对象 ${type} 未登记：其功能目录须在注册路由时登记（audit-target.ts）`);
  }
}
