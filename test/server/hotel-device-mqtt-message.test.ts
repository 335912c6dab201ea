/**
 * The reader every MQTT device and gateway message goes through (readKeyedMessage): a closed JSON
 * object with a key, refused whole when anything about it is off. The broker suites
 * (hotel-device-mqtt, hotel-device-gateway) cover the messages end to end.
 */
import { readKeyedMessage } from '../../src/server/routes/hotel/device/mqtt';

const read = (payload: string | Buffer, allowed: readonly string[] = ['commandId'], maxBytes = 1024) =>
  readKeyedMessage(Buffer.isBuffer(payload) ? payload : Buffer.from(payload, 'utf8'), maxBytes, allowed);

describe('readKeyedMessage', () => {
  it('answers the key and the allowed fields present, their values unchecked', () => {
    expect(read('{"key":"k1"}')).toEqual({ key: 'k1' });
    expect(read('{"key":"k1","commandId":"anything"}')).toEqual({ key: 'k1', commandId: 'anything' });
    expect(read(JSON.stringify({ key: 'k'.repeat(128), devices: [] }), ['devices'])).toEqual({ key: 'k'.repeat(128), devices: [] });
  });

  it.each([
    ['an unknown field', '{"key":"k1","extra":1}'],
    ['a field allowed elsewhere but not here', '{"key":"k1","devices":[]}'],
    ['an own __proto__ field', '{"key":"k1","__proto__":{}}'],
    ['no key', '{"commandId":1}'],
    ['an empty key', '{"key":""}'],
    ['a key too long', JSON.stringify({ key: 'k'.repeat(129) })],
    ['a key that is not a string', '{"key":12}'],
    ['an array', '[{"key":"k1"}]'],
    ['null', 'null'],
    ['a string', '"k1"'],
    ['a number', '42'],
    ['not JSON', 'key=k1'],
    ['bytes that are not text', Buffer.from([0xff, 0xfe, 0x00])],
  ])('refuses %s', (_case, payload) => {
    expect(read(payload)).toBeNull();
  });

  it('refuses a payload past its limit unread, and takes one at the limit', () => {
    const atLimit = JSON.stringify({ key: 'k1', commandId: 'x'.repeat(100) });
    expect(read(atLimit, ['commandId'], Buffer.byteLength(atLimit))).toEqual({ key: 'k1', commandId: 'x'.repeat(100) });
    expect(read(atLimit, ['commandId'], Buffer.byteLength(atLimit) - 1)).toBeNull();
  });
});
