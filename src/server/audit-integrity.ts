/**
 * `npm run audit:integrity`: the integrity check (完整性校验) of the operation log's and the login
 * log's hash chains in the configured database (DATABASE_URL, or the SQLite file under DATA_DIR /
 * SQLITE_FILE); prints the first broken link of each. Exit code 0 when both are intact, 1 when
 * either is broken, 2 when the database cannot be opened.
 */
import fs from 'node:fs';
import { loadConfig } from './config';
import { openDatabase } from './db/connection';
import { checkChainIntegrity, type ChainName } from './lib/audit-chain';

const CHAINS: Array<[ChainName, string]> = [
  ['operation', '操作日志'],
  ['login', '登录日志'],
];

export async function runIntegrityCheck(env: NodeJS.ProcessEnv, print: (line: string) => void): Promise<number> {
  const config = loadConfig(env);
  if (!config.databaseUrl && !fs.existsSync(config.sqliteFile)) {
    print(`数据库文件不存在：${config.sqliteFile}（请设置 DATA_DIR、SQLITE_FILE 或 DATABASE_URL）`);
    return 2;
  }
  const database = await openDatabase({ url: config.databaseUrl, sqliteFile: config.sqliteFile, poolSize: 1, sqliteReaders: 0 });
  try {
    let broken = false;
    for (const [chain, title] of CHAINS) {
      const result = await checkChainIntegrity(database.db, chain);
      const range = `起点 ${result.anchorId}，链头 ${result.headId}，已校验 ${result.checked} 条`;
      if (result.firstBroken) {
        broken = true;
        print(`${title}：校验未通过（${range}）：记录 ${result.firstBroken.id} ${result.firstBroken.reason}`);
      } else {
        print(`${title}：校验通过（${range}）`);
      }
    }
    return broken ? 1 : 0;
  } finally {
    await database.close();
  }
}

if (require.main === module) {
  runIntegrityCheck(process.env, (line) => process.stdout.write(`${line}\n`)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`校验失败：${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(2);
    },
  );
}
