/**
 * Which addresses an outbound call (a webhook, a robot, an SMTP server) may connect to. Never the
 * machine's own link-local network or a cloud's metadata service (where a server's credentials
 * can be read), never "this host" (0.0.0.0, ::), multicast or broadcast; loopback and private
 * ranges only where the operator allows them (on-premise receivers, the tests). IPv6 forms that
 * carry an IPv4 address (mapped, compatible, NAT64, 6to4) are judged by that address too.
 */
import net from 'node:net';

/** public: anywhere; private: only with the setting on; forbidden: never. */
export type AddressClass = 'public' | 'private' | 'forbidden';

export interface AddressVerdict {
  class: AddressClass;
  /** What the address is, in Chinese (empty for a public address). */
  kind: string;
}

/** Host names of metadata services, refused before any lookup. */
const METADATA_HOSTS = new Set(['metadata.google.internal', 'metadata.goog', 'metadata', 'instance-data', 'instance-data.ec2.internal']);

/** Metadata services at addresses outside the link-local range (Alibaba, Oracle, Azure). */
const METADATA_V4 = new Set(['100.100.100.200', '192.0.0.192', '168.63.129.16']);
/** AWS's metadata service over IPv6. */
const METADATA_V6 = 'fd00:ec2::254';

const PUBLIC: AddressVerdict = { class: 'public', kind: '' };
const forbidden = (kind: string): AddressVerdict => ({ class: 'forbidden', kind });
const privately = (kind: string): AddressVerdict => ({ class: 'private', kind });

/** A host name as the URL or the configuration gave it, without brackets, case or a trailing dot. */
export const bareHost = (host: string): string =>
  host
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();

export const isMetadataHost = (host: string): boolean => METADATA_HOSTS.has(bareHost(host));

function v4Bytes(text: string): number[] {
  return text.split('.').map(Number);
}

function classifyV4([a, b, c, d]: number[]): AddressVerdict {
  const text = `${a}.${b}.${c}.${d}`;
  if (METADATA_V4.has(text)) return forbidden('云服务器元数据地址');
  if (a === 0) return forbidden('未指定地址（0.0.0.0/8）');
  if (a === 169 && b === 254) return forbidden('链路本地地址（169.254.0.0/16，含云服务器元数据）');
  if (a >= 224 && a <= 239) return forbidden('组播地址');
  if (a >= 240) return forbidden('广播或保留地址');
  if (a === 127) return privately('本机回环地址');
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return privately('内网地址');
  if (a === 100 && b >= 64 && b <= 127) return privately('运营商级 NAT 地址（100.64.0.0/10）');
  if (a === 198 && (b === 18 || b === 19)) return privately('测试网络地址（198.18.0.0/15）');
  return PUBLIC;
}

/** The 16 bytes of an IPv6 address (zone id dropped), or undefined if it is not one. */
function v6Bytes(text: string): number[] | undefined {
  const address = text.split('%')[0];
  if (net.isIPv6(address) === false) return undefined;
  let head = address;
  let tail: number[] = [];
  // A dotted IPv4 address may end the text (::ffff:1.2.3.4).
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(head);
  if (dotted) {
    tail = v4Bytes(dotted[1]);
    head = head.slice(0, -dotted[1].length);
    if (head.endsWith(':') && !head.endsWith('::')) head = head.slice(0, -1);
  }
  const groups = (part: string) => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const [left, right] = head.includes('::') ? head.split('::') : [head, undefined];
  const leftGroups = groups(left);
  const rightGroups = right === undefined ? [] : groups(right);
  const missing = 8 - tail.length / 2 - leftGroups.length - rightGroups.length;
  const words = [...leftGroups, ...Array<number>(right === undefined ? 0 : missing).fill(0), ...rightGroups];
  const bytes = words.flatMap((word) => [word >> 8, word & 0xff]);
  return [...bytes, ...tail];
}

const startsWith = (bytes: number[], prefix: number[]) => prefix.every((byte, i) => bytes[i] === byte);
const allZero = (bytes: number[]) => bytes.every((byte) => byte === 0);

/** The IPv4 address an IPv6 address carries (mapped, compatible, NAT64, 6to4), if any. */
function embeddedV4(bytes: number[]): number[] | undefined {
  const ten = bytes.slice(0, 10);
  if (allZero(ten) && bytes[10] === 0xff && bytes[11] === 0xff) return bytes.slice(12);
  // IPv4-translated (::ffff:0:a.b.c.d) and IPv4-compatible (::a.b.c.d, deprecated).
  if (allZero(bytes.slice(0, 8)) && bytes[8] === 0xff && bytes[9] === 0xff && bytes[10] === 0 && bytes[11] === 0) return bytes.slice(12);
  if (allZero(bytes.slice(0, 12)) && !allZero(bytes.slice(12, 15))) return bytes.slice(12);
  if (startsWith(bytes, [0x00, 0x64, 0xff, 0x9b]) && allZero(bytes.slice(4, 12))) return bytes.slice(12);
  if (startsWith(bytes, [0x20, 0x02])) return bytes.slice(2, 6);
  return undefined;
}

const STRICTNESS: Record<AddressClass, number> = { public: 0, private: 1, forbidden: 2 };

function classifyV6(bytes: number[]): AddressVerdict {
  const inner = embeddedV4(bytes);
  const own = ((): AddressVerdict => {
    if (allZero(bytes)) return forbidden('未指定地址（::）');
    if (allZero(bytes.slice(0, 15)) && bytes[15] === 1) return privately('本机回环地址');
    if (bytes[0] === 0xfe && (bytes[1] & 0xc0) === 0x80) return forbidden('链路本地地址（fe80::/10）');
    if (bytes[0] === 0xff) return forbidden('组播地址');
    if (startsWith(bytes, v6Bytes(METADATA_V6)!)) return forbidden('云服务器元数据地址');
    if ((bytes[0] & 0xfe) === 0xfc) return privately('内网地址（fc00::/7）');
    if (bytes[0] === 0xfe && (bytes[1] & 0xc0) === 0xc0) return privately('站点本地地址（fec0::/10）');
    return PUBLIC;
  })();
  if (!inner) return own;
  const carried = classifyV4(inner);
  return STRICTNESS[carried.class] > STRICTNESS[own.class] ? carried : own;
}

/** What an IP address is; undefined when the text is not an IP address. */
export function classifyAddress(address: string): AddressVerdict | undefined {
  const text = bareHost(address);
  if (net.isIPv4(text)) return classifyV4(v4Bytes(text));
  const bytes = v6Bytes(text);
  return bytes ? classifyV6(bytes) : undefined;
}

/**
 * Why an outbound call may not connect to `address` (Chinese, for the channel's health and the
 * message record), or null when it may.
 */
export function refusalOf(address: string, allowPrivate: boolean): string | null {
  const verdict = classifyAddress(address);
  if (!verdict) return `目标地址 ${address} 不是有效的 IP 地址`;
  if (verdict.class === 'forbidden') return `不允许连接目标地址 ${bareHost(address)}：${verdict.kind}`;
  if (verdict.class === 'private' && !allowPrivate) return `不允许连接目标地址 ${bareHost(address)}：${verdict.kind}（需设置 NOTIFY_ALLOW_PRIVATE_TARGETS=1）`;
  return null;
}
