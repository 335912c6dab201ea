/**
 * E-mail over SMTP (nodemailer, through the outbound client's target checks): the title is the
 * subject, the body and the console link the text. The server's reply decides: accepted is sent, a
 * 5xx reply (bad credentials: 535, a refused recipient: 550) is refused for good, a 4xx reply, a
 * timeout or a lost connection is tried again.
 */
import { sendMail } from '../../../lib/outbound/mail';
import { failedCall } from './http-delivery';
import { keptAnswer, type Vendor } from './vendor';

const replyCode = (response: string): number | null => {
  const code = /^(\d{3})/.exec(response);
  return code ? Number(code[1]) : null;
};

export const email: Vendor = {
  limits: (settings) => (settings.ratePerMinute ? [{ count: settings.ratePerMinute, windowMs: 60_000 }] : []),
  deliver: async (message, settings, { outbound }) => {
    const text = `${message.body}${message.link ? `\n\n查看详情：${message.link}` : ''}`;
    try {
      const receipt = await sendMail(
        outbound,
        { host: settings.host!, port: settings.port!, security: settings.security ?? 'starttls', user: settings.user ?? '', password: settings.password ?? '' },
        { from: settings.from!, to: settings.to!, subject: message.title, text },
      );
      const rejected = receipt.rejected.length > 0 ? `（以下收件人被拒收：${receipt.rejected.join('、')}）` : '';
      return { verdict: 'sent', status: replyCode(receipt.response), answer: keptAnswer(`${receipt.response}${rejected}`), reason: '' };
    } catch (error) {
      return failedCall(error);
    }
  },
};
