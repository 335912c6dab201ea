/**
 * Starts the product: opens (and migrates) the database, seeds an empty one, serves the SPA and
 * /api on one port, runs the scheduler and the notification worker, and prints how to sign in.
 */
import { databaseOptionsOf, loadConfig } from './config';
import { limitHeapGrowth } from './lib/heap-growth';
import { openDatabase } from './db/connection';
import { seedIfEmpty } from './services/builtins/seed';
import { ADMIN_USER_NAME } from './services/builtins/catalogue';
import { buildApp, closeApp } from './app';
import { assertPasswordPolicy, generatePassword } from './lib/password-policy';
import { startScheduler } from './services/scheduler/scheduler';
import { startNotificationWorker } from './services/notification';

async function main(): Promise<void> {
  const config = loadConfig();
  limitHeapGrowth(config.heapGrowingPercent);
  const database = await openDatabase(databaseOptionsOf(config));
  const app = await buildApp({ config, database });

  const adminPassword = config.adminPassword ?? generatePassword();
  try {
    assertPasswordPolicy(adminPassword, ADMIN_USER_NAME);
  } catch (error) {
    throw new Error(`ADMIN_PASSWORD 不符合密码规则：${(error as Error).message}`, { cause: error });
  }
  const { seeded } = await seedIfEmpty(database.db, () => app.passwords.hash(adminPassword));
  const scheduler = config.scheduler.enabled ? startScheduler(app) : null;
  const notifications = config.notify.enabled ? startNotificationWorker(app) : null;

  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    await scheduler?.stop();
    await notifications?.stop();
    await closeApp(app, database);
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  const url = `http://localhost:${config.port}/`;
  const store = database.dialect === 'postgres' ? 'PostgreSQL（DATABASE_URL）' : config.sqliteFile;
  const signIn = !seeded
    ? `登录：使用已有账号（首次启动时创建的管理员为 ${ADMIN_USER_NAME}）`
    : config.adminPassword
      ? `登录：用户名 ${ADMIN_USER_NAME}，密码为环境变量 ADMIN_PASSWORD 的值`
      : `登录：用户名 ${ADMIN_USER_NAME}，初始密码 ${adminPassword}（只显示这一次，请登录后立即修改）`;
  process.stdout.write(`\n  酒店后台管理系统已启动\n  地址：${url}\n  数据库：${store}\n  ${signIn}\n\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`启动失败：${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
