// In-process profile of the device list's statements (PG): logs each statement's SQL and time.
const pg = require('pg');
const orig = pg.Client.prototype.query;
const log = [];
pg.Client.prototype.query = function (config, values, cb) {
  const text = typeof config === 'string' ? config : config.text;
  const t = process.hrtime.bigint();
  const r = orig.call(this, config, values, cb);
  if (r && r.then) r.then(() => log.push([Number(process.hrtime.bigint() - t) / 1e6, text, typeof config === 'string' ? values : config.values]), () => {});
  return r;
};
const { loadConfig, databaseOptionsOf } = require('./dist/node/server/config');
const { openDatabase } = require('./dist/node/server/db/connection');
const { buildApp } = require('./dist/node/server/app');
(async () => {
  const config = { ...loadConfig({ DATABASE_URL: process.env.H26_URL, SCHEDULER: 'off', LOG_LEVEL: 'warn' }, '/tmp'), scheduler: { enabled: false, tickMs: 50 } };
  const database = await openDatabase(databaseOptionsOf(config));
  const app = await buildApp({ config, database, logger: false });
  await app.ready();
  const login = async (u) => (await app.inject({ method: 'POST', url: '/api/sys/user/verify', payload: { userName: u, password: 'Scale-Passw0rd' } })).json();
  const tok = {};
  for (const u of ['scale000150', 'scale000010']) { const r = await login(u); tok[u] = r.data.token; }
  console.log(tok);
  const bodies = { page1: { size: 10, current: 1 }, name: { size: 10, current: 1, params: { name: '酒店050-8' } } };
  for (const [u, t] of Object.entries(tok)) for (const [k, b] of Object.entries(bodies)) {
    for (let i = 0; i < 20; i++) await app.inject({ method: 'POST', url: '/api/hotel/device/inquire', headers: { authorization: `Bearer ${t}` }, payload: b });
    log.length = 0;
    const res = await app.inject({ method: 'POST', url: '/api/hotel/device/inquire', headers: { authorization: `Bearer ${t}` }, payload: b });
    console.log('==', u, k, res.json().data?.total, res.json().msg);
    for (const [ms, text, v] of log.filter(([, t]) => /hotel_device/.test(t))) console.log(ms.toFixed(2), text.replace(/\s+/g, ' ').slice(0, 400), JSON.stringify(v)?.slice(0, 200));
  }
  await app.close(); await database.close?.();
  process.exit(0);
})();
