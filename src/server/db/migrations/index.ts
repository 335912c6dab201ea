/** Versioned migrations, in code. Add a file per change; never edit one that has shipped. */
import type { Migration, MigrationProvider } from 'kysely';
import type { Dialect } from '../connection';
import { initialSchema } from './001_initial';

export class CodeMigrationProvider implements MigrationProvider {
  constructor(private readonly dialect: Dialect) {}

  async getMigrations(): Promise<Record<string, Migration>> {
    return {
      '001_initial': initialSchema(this.dialect),
    };
  }
}
