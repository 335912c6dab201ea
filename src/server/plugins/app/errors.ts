/**
 * Every business outcome is HTTP 200 with `{code, msg, data}` (docs/API.md, answers). Validation
 * failures become a Chinese 400; unexpected errors a generic 500 whose details stay in the log.
 * Only what is not a business answer keeps a real HTTP status (413 body too large).
 */
import fp from 'fastify-plugin';
import type { FastifyError, FastifyInstance } from 'fastify';
import { Code } from '../../../contract/constants';
import { AppError } from '../../lib/errors';
import { fieldErrors, validationMessage, type ValidationIssue } from '../../lib/validation-messages';

/** A custom serializer sets no type of its own; without a charset clients misread the Chinese msg. */
const JSON_TYPE = 'application/json; charset=utf-8';

export const formatValidationErrors = (errors: ValidationIssue[]): AppError => {
  const fields = fieldErrors(errors);
  return new AppError(Code.invalid, validationMessage(errors), fields.length > 0 ? fields : undefined);
};

const frameworkMessages: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: '请求内容不是合法的 JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: '请求内容不能为空',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: '不支持的请求内容类型，请使用 application/json',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: '请求长度不正确',
};

/**
 * The database gave up on this request's statement because another transaction held what it
 * needed: PostgreSQL chose it as a deadlock's victim (40P01), could not serialise it (40001) or
 * was told not to wait (55P03); SQLite's write lock stayed taken past the busy timeout. Its
 * transaction was rolled back, and the same request again succeeds.
 */
const contended = (code: string) => ['40P01', '40001', '55P03'].includes(code) || /^SQLITE_(BUSY|LOCKED)(_|$)/.test(code);
export const CONTENDED_MSG = '数据正被其他操作占用，请稍后重试';

export const errorsPlugin = fp((app: FastifyInstance, _options: unknown, done: () => void) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply.code(413).type(JSON_TYPE).serializer(JSON.stringify).send({ code: 413, msg: '请求内容过大', data: null });
    }
    let code: number = Code.internal;
    let msg = '服务器内部错误，请稍后重试';
    let errors: AppError['errors'];
    let reason: AppError['reason'];
    if (error instanceof AppError) {
      ({ code, message: msg, errors, reason } = error);
    } else if (error.validation) {
      ({ code, message: msg, errors } = formatValidationErrors(error.validation));
    } else if (error.code && contended(error.code)) {
      code = Code.conflict;
      msg = CONTENDED_MSG;
      request.log.warn({ err: error }, 'database contended');
    } else if (error.code && frameworkMessages[error.code]) {
      code = Code.invalid;
      msg = frameworkMessages[error.code]!;
    } else if (error.statusCode && error.statusCode < 500) {
      code = Code.invalid;
      msg = '请求不合法';
    } else {
      request.log.error({ err: error }, 'unexpected error');
    }
    // The route's answer schema describes success data; errors carry data: null.
    return reply
      .code(200)
      .type(JSON_TYPE)
      .serializer(JSON.stringify)
      .send({ code, msg, data: null, ...(errors ? { errors } : {}), ...(reason ? { reason } : {}) });
  });
  done();
});
