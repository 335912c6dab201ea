/**
 * antd's `form.validateFields` for a dialog's save button: the values, or null when a field is
 * refused (antd shows the message under it; this scrolls it into view, as `scrollToFirstError`
 * does for `onFinish` forms).
 *
 * validateFields also rejects, without any field error, when another validation started while it
 * ran (`outOfDate`: a field re-validated as the user typed on, or a dependent field). Nothing is
 * wrong then, but a dialog that returned on it ignored the press: no request, no message. So it
 * validates again, a bounded number of times, and goes on with the values.
 */
import type { FormInstance } from 'antd';

import { toast } from './toast';

const ATTEMPTS = 3;
const STILL_VALIDATING_MSG = '表单仍在校验，请稍后再试';

interface ValidateError {
  errorFields: { name: (string | number)[] }[];
}

const isValidateError = (error: unknown): error is ValidateError => typeof error === 'object' && error !== null && Array.isArray((error as ValidateError).errorFields);

export async function validateForm<Values>(form: FormInstance<Values>): Promise<Values | null> {
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    try {
      return await form.validateFields();
    } catch (error) {
      if (!isValidateError(error)) throw error;
      const [firstError] = error.errorFields;
      if (firstError) {
        form.scrollToField(firstError.name, { block: 'nearest' });
        return null;
      }
      // No field refused: a newer validation made this one out of date.
    }
  }
  toast.error(STILL_VALIDATING_MSG);
  return null;
}
