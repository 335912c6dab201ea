/**
 * Issue 28: message templates through the API. Every channel type and kind lists its template (the
 * Chinese default until edited); an edit saves a title and a text with the alarm's placeholders,
 * versioned; a placeholder that does not exist is refused under its field and saves nothing; the
 * preview fills a sample alarm and the console link; 恢复默认 drops the edit. On both databases.
 */
import { describeOnEachDatabase } from './support/harness';
import { expectOk } from './support/sys-fixtures';
import { CONSOLE_URL, notifySettings } from './support/notify-fixtures';

describeOnEachDatabase(
  'monitor/template',
  (ctx) => {
    let admin: string;
    beforeAll(async () => {
      admin = await ctx().login();
    });
    const stored = () => ctx().database.db.selectFrom('notifyTemplate').selectAll().orderBy('id').execute();
    const list = async (params: Record<string, string> = {}) => expectOk(await ctx().call('/monitor/template/inquire', { size: 50, current: 1, params }, admin));

    it('lists every channel type and kind with its default until edited', async () => {
      const all = await list();
      expect(all.total).toBe(15);
      expect(new Set(all.records.map((t) => t.id)).size).toBe(15);
      const hooks = await list({ channelType: 'webhook' });
      expect(hooks.records.map((t) => [t.kind, t.custom, t.version])).toEqual([
        ['raise', 0, 0],
        ['clear', 0, 0],
        ['escalation', 0, 0],
      ]);
      expect(hooks.records[0]).toMatchObject({ title: '【{{severity}}】{{alarmType}}：{{deviceName}}', body: expect.stringContaining('位置：{{location}}') as unknown });
      // The robots' default text is Markdown.
      const [ding] = (await list({ channelType: 'dingtalk', kind: 'raise' })).records;
      expect(ding.body).toContain('- **位置**：{{location}}');
    });

    it('saves an edit, refuses a stale one, and goes back to the default', async () => {
      const edit = { channelType: 'wecom', kind: 'clear', title: '恢复：{{deviceName}}', body: '**{{location}}** 于 {{clearedTime}} 恢复\n[查看]({{link}})' } as const;
      const saved = expectOk(await ctx().call('/monitor/template/edit', { ...edit, version: 0 }, admin));
      expect(saved).toMatchObject({ ...edit, custom: 1, version: 1 });
      expect(await ctx().call('/monitor/template/edit', { ...edit, title: '又改', version: 0 }, admin)).toMatchObject({ code: 409 });
      expect(expectOk(await ctx().call('/monitor/template/edit', { ...edit, title: '又改', version: 1 }, admin))).toMatchObject({ title: '又改', version: 2 });

      const reset = expectOk(await ctx().call('/monitor/template/reset', { channelType: 'wecom', kind: 'clear' }, admin));
      expect(reset).toMatchObject({ custom: 0, version: 0, title: '【已恢复】{{alarmType}}：{{deviceName}}' });
      expect(await stored()).toEqual([]);
    });

    it('refuses a placeholder that does not exist, under its field, and saves nothing', async () => {
      expect(
        await ctx().call('/monitor/template/edit', { channelType: 'email', kind: 'raise', title: '{{deviceName}}', body: '{{roomNo}} {{ foo }} {{roomNo}}', version: 0 }, admin),
      ).toEqual({ code: 400, msg: '未知的占位符：{{roomNo}}、{{foo}}', data: null, errors: [{ field: 'body', msg: '未知的占位符：{{roomNo}}、{{foo}}' }] });
      expect(await ctx().call('/monitor/template/preview', { channelType: 'email', kind: 'raise', title: '{{device}}', body: '正文' }, admin)).toEqual({
        code: 400,
        msg: '未知的占位符：{{device}}',
        data: null,
        errors: [{ field: 'title', msg: '未知的占位符：{{device}}' }],
      });
      expect(await stored()).toEqual([]);
    });

    it('previews a template filled with a sample alarm and the console link', async () => {
      const preview = expectOk(
        await ctx().call(
          '/monitor/template/preview',
          { channelType: 'dingtalk', kind: 'escalation', title: '{{severity}}·{{deviceName}}', body: '{{location}}｜{{minutes}} 分钟｜#{{alarmId}}｜{{link}}' },
          admin,
        ),
      );
      expect(preview).toEqual({ title: '重要·0808 门锁', body: `主楼 / 8F / 0808｜15 分钟｜#1024｜${CONSOLE_URL}/hotel/alarm?id=1024` });
    });
  },
  notifySettings(),
);
