/** Business errors are values with a code and a Chinese message; the error handler wraps them. */
import { Code } from '../../contract/constants';

export class AppError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const invalid = (msg: string) => new AppError(Code.invalid, msg);
export const unauthorized = (msg = '登录已失效，请重新登录') => new AppError(Code.unauthorized, msg);
export const forbidden = (msg = '没有权限执行该操作') => new AppError(Code.forbidden, msg);
export const notFound = (what: string) => new AppError(Code.notFound, `${what}不存在`);
export const conflict = (msg: string) => new AppError(Code.conflict, msg);
export const staleEdit = () => new AppError(Code.conflict, '数据已被他人修改，请刷新后重试');
export const tooManyAttempts = (msg: string) => new AppError(Code.tooManyAttempts, msg);
