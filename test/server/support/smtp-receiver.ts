/**
 * A real SMTP server (the smtp-server package) on a free local port, keeping every mail it receives
 * with its subject and text decoded (RFC 2047 words; base64 or quoted-printable bodies). With a user
 * and password it requires them (535 otherwise). Plain SMTP, no STARTTLS: channels use security none.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  raw: string;
}

/** Unfolded headers (lower-case names) and the body of a single-part message. */
function split(raw: string): { headers: Map<string, string>; body: string } {
  const end = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, end).replace(/\r\n[ \t]+/g, ' ');
  const headers = new Map<string, string>();
  for (const line of head.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body: raw.slice(end + 4) };
}

const quotedPrintable = (text: string) =>
  Buffer.from(
    text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');

/** Encoded words (=?UTF-8?B?…?= / =?UTF-8?Q?…?=); whitespace between two of them is dropped. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_, _charset: string, encoding: string, text: string) =>
      encoding.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : quotedPrintable(text.replace(/_/g, ' ')),
    );
}

function decodeBody(body: string, encoding: string | undefined): string {
  const trimmed = body.replace(/\r\n$/, '');
  if (encoding?.toLowerCase() === 'base64') return Buffer.from(trimmed.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding?.toLowerCase() === 'quoted-printable') return quotedPrintable(trimmed);
  return trimmed;
}

export class SmtpReceiver {
  readonly mails: ReceivedMail[] = [];
  /** The next mails are refused with this reply code (e.g. 451, "try again later"), then taken again. */
  refuseNext: { code: number; count: number } | null = null;

  private readonly server: SMTPServer;
  /** The port it listens on, once started. */
  port = 0;

  private constructor(credentials?: { user: string; password: string }) {
    this.server = new SMTPServer({
      logger: false,
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      authOptional: !credentials,
      onAuth(auth, _session, callback) {
        if (credentials && auth.username === credentials.user && auth.password === credentials.password) return callback(null, { user: auth.username });
        const error = Object.assign(new Error('Invalid username or password'), { responseCode: 535 });
        return callback(error);
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          if (this.refuseNext && this.refuseNext.count > 0) {
            this.refuseNext.count -= 1;
            return callback(Object.assign(new Error('Requested action aborted: local error in processing'), { responseCode: this.refuseNext.code }));
          }
          const raw = Buffer.concat(chunks).toString('utf8');
          const { headers, body } = split(raw);
          this.mails.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            subject: decodeWords(headers.get('subject') ?? ''),
            text: decodeBody(body, headers.get('content-transfer-encoding')).replace(/\r\n/g, '\n'),
            raw,
          });
          callback();
        });
      },
    });
  }

  static async start(credentials?: { user: string; password: string }): Promise<SmtpReceiver> {
    const receiver = new SmtpReceiver(credentials);
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    receiver.port = (receiver.server.server.address() as AddressInfo).port;
    return receiver;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
