/**
 * E-mail over SMTP through the outbound client's checks: the server's host is resolved and checked
 * there, and nodemailer connects to that checked address (TLS still verifies the certificate for
 * the host name). nodemailer is loaded on the first e-mail, not at start-up.
 */
import { OutboundError, type OutboundClient } from './client';

/** none: plain SMTP (no STARTTLS); starttls: STARTTLS required; tls: TLS from the first byte (port 465). */
export type SmtpSecurity = 'none' | 'starttls' | 'tls';

export interface SmtpServer {
  host: string;
  port: number;
  security: SmtpSecurity;
  /** Empty: no authentication. */
  user: string;
  password: string;
}

export interface MailMessage {
  from: string;
  to: string[];
  subject: string;
  text: string;
}

export interface MailReceipt {
  /** The server's last reply (e.g. `250 OK: queued as …`). */
  response: string;
  accepted: string[];
  rejected: string[];
}

interface SmtpFailure {
  code?: string;
  responseCode?: number;
  response?: string;
  message?: string;
}

/** Reply codes 5xx refuse for good, 4xx for now; a failure without one is the connection's. */
function outboundErrorOf(error: unknown): OutboundError {
  if (error instanceof OutboundError) return error;
  const failure = (error ?? {}) as SmtpFailure;
  const text = failure.response ?? failure.message ?? String(error);
  if (typeof failure.responseCode === 'number') return new OutboundError('answer', `邮件服务器拒绝：${text}`, failure.responseCode);
  if (failure.code === 'ETIMEDOUT') return new OutboundError('timeout', `邮件服务器超时：${text}`);
  return new OutboundError('network', `连接邮件服务器失败：${text}`);
}

export async function sendMail(client: OutboundClient, server: SmtpServer, message: MailMessage): Promise<MailReceipt> {
  const [target] = await client.resolveTarget(server.host);
  const { connectTimeoutMs, totalTimeoutMs } = client.options;
  const { createTransport } = await import('nodemailer');
  const transport = createTransport({
    host: target.address,
    port: server.port,
    // The certificate is checked for the configured name, not for the address connected to.
    servername: server.host,
    secure: server.security === 'tls',
    requireTLS: server.security === 'starttls',
    ignoreTLS: server.security === 'none',
    ...(server.user !== '' ? { auth: { user: server.user, pass: server.password } } : {}),
    connectionTimeout: connectTimeoutMs,
    greetingTimeout: connectTimeoutMs,
    socketTimeout: totalTimeoutMs,
  });
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new OutboundError('timeout', `发送邮件超时（${totalTimeoutMs} 毫秒内未完成）`)), totalTimeoutMs);
  });
  try {
    const info = await Promise.race([transport.sendMail({ from: message.from, to: message.to, subject: message.subject, text: message.text }), deadline]);
    return { response: info.response, accepted: info.accepted.map(String), rejected: info.rejected.map(String) };
  } catch (error) {
    throw outboundErrorOf(error);
  } finally {
    clearTimeout(timer);
    transport.close();
  }
}
