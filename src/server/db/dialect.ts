/**
 * The two databases the product runs on. A types-only module: migrations take their types from here
 * (never from connection.ts, which runs them), so a migration depends on nothing that can change.
 */
export type Dialect = 'sqlite' | 'postgres';
