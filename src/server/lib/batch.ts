/**
 * All-or-nothing batch actions: every row is checked before anything is written, and one refused
 * row refuses the batch. The refusal names each refused row as `ids.<index>` with its reason, so
 * the person sees every row to take out, not only the first.
 */
import type { FieldError } from '../../contract/constants';
import { AppError } from './errors';

/** Runs `check` on every id; answers their results, or throws one refusal listing every refused id. */
export async function checkEach<T>(ids: readonly number[], check: (id: number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  const refused: FieldError[] = [];
  let code: number | undefined;
  for (const [index, id] of ids.entries()) {
    try {
      results.push(await check(id));
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      code ??= error.code;
      refused.push({ field: `ids.${index}`, msg: `编号 ${id}：${error.message}` });
    }
  }
  if (code !== undefined) throw new AppError(code, `${refused.length} 项不能执行，未做任何更改（${refused[0].msg}）`, refused);
  return results;
}
