/**
 * Device keys: 256 random bits shown once to the operator, only their SHA-256 kept. A heartbeat's
 * key is compared with the stored hash in constant time, and an unknown serial number costs the
 * same comparison, so neither timing nor the message tells a wrong key from an unknown device.
 */
import crypto from 'node:crypto';

export const issueDeviceKey = (): string => crypto.randomBytes(32).toString('base64url');

export const hashDeviceKey = (key: string): string => crypto.createHash('sha256').update(key).digest('hex');

/** Stands in for the stored hash of a device that does not exist. */
const NO_DEVICE_HASH = hashDeviceKey(crypto.randomBytes(32).toString('base64url'));

export function deviceKeyMatches(key: string, storedHash: string | undefined): boolean {
  const expected = Buffer.from(storedHash ?? NO_DEVICE_HASH, 'hex');
  const actual = Buffer.from(hashDeviceKey(key), 'hex');
  return expected.length === actual.length && crypto.timingSafeEqual(actual, expected) && storedHash !== undefined;
}
