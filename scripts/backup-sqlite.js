#!/usr/bin/env node
/**
 * Online backup of the embedded SQLite database while the product runs:
 *   node scripts/backup-sqlite.js [data/hotel.db] [backups/hotel-YYYYMMDD-HHmm.db]
 * SQLite's backup API copies a consistent snapshot page by page without stopping writers (the
 * database runs in WAL mode). Restore: stop the product, put the copy at the database path
 * (SQLITE_FILE, or DATA_DIR/hotel.db) and start it. See docs/deploy.md.
 */
const fs = require('node:fs');
const path = require('node:path');
const Database = require('better-sqlite3');

async function main() {
  const source = path.resolve(process.argv[2] ?? process.env.SQLITE_FILE ?? path.join(process.env.DATA_DIR ?? 'data', 'hotel.db'));
  const stamp = new Date().toISOString().replace(/[-:]/g, '').slice(0, 13).replace('T', '-');
  const target = path.resolve(process.argv[3] ?? path.join('backups', `hotel-${stamp}.db`));
  if (!fs.existsSync(source)) throw new Error(`数据库文件不存在：${source}`);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const db = new Database(source, { readonly: true, fileMustExist: true });
  try {
    await db.backup(target);
  } finally {
    db.close();
  }
  const check = new Database(target, { readonly: true });
  const integrity = check.pragma('integrity_check', { simple: true });
  check.close();
  if (integrity !== 'ok') throw new Error(`备份校验失败：${integrity}`);
  process.stdout.write(`已备份 ${source} -> ${target}（${fs.statSync(target).size} 字节，完整性检查通过）\n`);
}

main().catch((error) => {
  process.stderr.write(`备份失败：${error.message}\n`);
  process.exit(1);
});
