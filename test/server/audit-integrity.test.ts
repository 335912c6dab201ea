/** `npm run audit:integrity`: both chains checked in the configured database, exit code 1 on a break. */
import { createTestDatabase, dialects, startTestApp } from './support/harness';
import { runIntegrityCheck } from '../../src/server/audit-integrity';

describe.each(dialects())('audit:integrity [%s]', (dialect) => {
  it('prints both chains, and the first broken record with exit code 1', async () => {
    const target = await createTestDatabase(dialect);
    const app = await startTestApp(target);
    const env = target.url ? { DATABASE_URL: target.url } : { SQLITE_FILE: target.sqliteFile };
    try {
      const admin = await app.login();
      await app.call('/sys/role/creation', { name: '校验', remark: '', state: 1 }, admin);
      const lines: string[] = [];
      expect(await runIntegrityCheck(env, (line) => lines.push(line))).toBe(0);
      expect(lines).toEqual(['操作日志：校验通过（起点 0，链头 1，已校验 1 条）', '登录日志：校验通过（起点 0，链头 1，已校验 1 条）']);

      await app.database.db.updateTable('sysLoginLog').set({ ip: '10.0.0.1' }).where('id', '=', 1).execute();
      lines.length = 0;
      expect(await runIntegrityCheck(env, (line) => lines.push(line))).toBe(1);
      expect(lines[1]).toMatch(/^登录日志：校验未通过（起点 0，链头 1，已校验 0 条）：记录 1 记录内容与其哈希不符/);
    } finally {
      await app.close();
      await target.drop();
    }
  }, 30_000);

  it('says so when the SQLite file does not exist, instead of creating one', async () => {
    const lines: string[] = [];
    expect(await runIntegrityCheck({ SQLITE_FILE: '/nonexistent/hotel.db' }, (line) => lines.push(line))).toBe(2);
    expect(lines[0]).toContain('数据库文件不存在');
  });
});
