/** Business errors are values with a code and a Chinese message; the error handler wraps them. */
import { Code, type FieldError, type SessionEndReason } from '../../contract/constants';

export class AppError extends Error {
  constructor(
    readonly code: number,
    message: string,
    /** The fields refused, for a form to show each message under its field. */
    readonly errors?: FieldError[],
    /** On a 401 for a session the server ended: why. */
    readonly reason?: SessionEndReason,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const invalid = (msg: string) => new AppError(Code.invalid, msg);
/** A refusal of one field of the request body (`field` as the body names it, e.g. 'name'). */
export const invalidField = (field: string, msg: string) => new AppError(Code.invalid, msg, [{ field, msg }]);
export const unauthorized = (msg = '登录已失效，请重新登录') => new AppError(Code.unauthorized, msg);
/** The 401 of a call made with a session the server ended, saying why (the sign-in page shows it). */
export const sessionEnded = (end: { reason: SessionEndReason; msg: string }) => new AppError(Code.unauthorized, end.msg, undefined, end.reason);
export const forbidden = (msg = '没有权限执行该操作') => new AppError(Code.forbidden, msg);
export const notFound = (what: string) => new AppError(Code.notFound, `${what}不存在`);
/** Runs a check of one field of the body, so its 400 names that field (e.g. a cron expression's parse). */
export function checkField<T>(field: string, check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (error instanceof AppError && error.code === Code.invalid && !error.errors) throw invalidField(field, error.message);
    throw error;
  }
}
export const conflict = (msg: string) => new AppError(Code.conflict, msg);
export const staleEdit = () => new AppError(Code.conflict, '数据已被他人修改，请刷新后重试');
export const tooManyAttempts = (msg: string) => new AppError(Code.tooManyAttempts, msg);
