/** Browser and operating system named from a User-Agent header, for the login log and online list. */
import UAParser from 'ua-parser-js';

export interface ClientSoftware {
  browser: string;
  os: string;
}

export function describeUserAgent(userAgent: string): ClientSoftware {
  if (userAgent === '') return { browser: '', os: '' };
  const { browser, os } = new UAParser(userAgent).getResult();
  const name = (part: { name?: string; version?: string }, version?: string) => [part.name, version].filter(Boolean).join(' ');
  return { browser: name(browser, browser.major), os: name(os, os.version) };
}

/** The header as sent, cut to what the session and login log columns hold. */
export const userAgentOf = (headers: Record<string, string | string[] | undefined>): string => {
  const value = headers['user-agent'];
  return (typeof value === 'string' ? value : '').slice(0, 255);
};
