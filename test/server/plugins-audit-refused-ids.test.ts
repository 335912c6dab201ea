/**
 * Issue 29: a request refused for an id past the integer columns' range (2147483648) is answered
 * 400 and recorded once, with the target id as sent and no lookup. Before, the audit hook read the
 * target by that id and PostgreSQL refused the value: an error line any signed-in user could cause.
 * Input from outside never logs above warn (docs/architecture.md, logging).
 */
import { createTestDatabase, dialects, startTestApp, type TestApp, type TestDatabase } from './support/harness';
import { captureLog } from './support/log-capture';
import type { EndpointKey } from '../../src/contract';

const PAST_INT4 = 2147483648;

/** Each audit path with a body valid but for its id. */
const CASES: Array<{ key: EndpointKey; body: Record<string, unknown> }> = [
  { key: '/sys/role/edit', body: { id: PAST_INT4, name: 'x', state: 1, version: 0 } },
  { key: '/sys/user/detail', body: { id: PAST_INT4 } },
  { key: '/hotel/device/edit', body: { id: PAST_INT4, name: '门锁', sn: 'SN-RANGE-1', type: 'lock', state: 1, remark: '', version: 0 } },
];

describe.each(dialects())('refused ids past the integer range [%s]', (dialect) => {
  const { lines, stream } = captureLog();
  let target: TestDatabase;
  let app: TestApp;
  let admin: string;

  beforeAll(async () => {
    target = await createTestDatabase(dialect);
    app = await startTestApp(target, {}, { logger: { level: 'info', stream } });
    admin = await app.login();
  }, 30_000);
  afterAll(async () => {
    await app?.close();
    await target?.drop();
  }, 30_000);

  it.each(CASES)('$key: a 400, one operation-log record naming the id as sent, no error line', async ({ key, body }) => {
    const recordsOf = () => app.database.db.selectFrom('sysOperationLog').selectAll().where('path', '=', key).execute();
    const before = (await recordsOf()).length;
    const linesBefore = lines.length;

    const answer = await app.call(key, body, admin);
    expect(answer).toMatchObject({ code: 400, msg: '编号不能大于 2147483647', data: null });

    const records = (await recordsOf()).slice(before);
    expect(records).toEqual([expect.objectContaining({ outcome: 'refused', code: 400, targetId: String(PAST_INT4), targetLabel: '' })]);
    const errors = lines.slice(linesBefore).filter((line) => (JSON.parse(line) as { level: number }).level >= 50);
    expect(errors).toEqual([]);
  });
});
