/** Turns a unique-constraint violation into a 409 with a message naming the clash. */
import { isUniqueViolation } from '../db/connection';
import { conflict } from './errors';

/**
 * Runs a write and answers 409 when it breaks a unique rule. Where a table has several unique rules,
 * pre-checks name the one that clashed and this still covers two requests racing past them.
 */
export async function uniquely<T>(write: () => Promise<T>, message: string): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(message);
    throw error;
  }
}
