/**
 * A refusal's field errors under their fields: the envelope names each refused field as the body
 * does (`name`, `params.days`); a form shows the message under the field of that name, or under
 * the field holding it (`params` for `params.days`). The one place every form does this.
 */
import type { FormInstance } from 'antd';

import type { FieldError } from '../../../contract/constants';
import { isBusinessError } from '../../lib/http/errors';

/** The field errors of a failed call; none for a refusal about no field or a transport failure. */
export function fieldErrorsOf(error: unknown): FieldError[] {
  return isBusinessError(error) ? (error.data.errors ?? []) : [];
}

/** Puts each error under its field among `names` (the form's fields); true when any was shown. */
export function showFieldErrors(form: FormInstance, errors: readonly FieldError[], names: readonly string[]): boolean {
  const shown = errors.flatMap(({ field, msg }) => {
    const name = names.includes(field) ? field : names.find((candidate) => field.startsWith(`${candidate}.`));
    return name === undefined ? [] : [{ name, errors: [msg] }];
  });
  form.setFields(shown);
  return shown.length > 0;
}
