/** Room numbers as hotels write them: the digits before the last two name the floor (0808 -> 8F). */

/** The floor a room number implies, or null when it names none (not 3-4 digits). */
export function floorOfRoomNo(roomNo: string): string | null {
  const match = /^(\d{1,2})\d{2}$/.exec(roomNo);
  if (!match) return null;
  const floor = Number(match[1]);
  return floor === 0 ? null : `${floor}F`;
}

/** The room numbers from..to inclusive, keeping the width of `from` (0801..0830). */
export function roomRange(from: string, to: string): string[] | string {
  if (!/^\d{1,8}$/.test(from) || !/^\d{1,8}$/.test(to)) return '房间号必须是数字';
  if (from.length !== to.length) return '起止房间号位数必须相同';
  const start = Number(from);
  const end = Number(to);
  if (end < start) return '结束房间号不能小于开始房间号';
  if (end - start + 1 > MAX_BULK_ROOMS) return `一次最多创建 ${MAX_BULK_ROOMS} 个房间`;
  const rooms: string[] = [];
  for (let n = start; n <= end; n += 1) rooms.push(String(n).padStart(from.length, '0'));
  return rooms;
}

export const MAX_BULK_ROOMS = 200;
