/**
 * The arguments the benches and the suites that run the built server (browser, deploy) start it
 * with: those of `npm run serve` (package.json), its Node flags included, so what they measure and
 * test is the product as it is run.
 */
const path = require('node:path');

const [command, ...args] = require('../package.json').scripts.serve.split(/\s+/);
if (command !== 'node') throw new Error(`package.json "serve" should run node, not ${command}`);
const main = args.pop();

/** The server's entry point (absolute). */
const SERVER_MAIN = path.resolve(__dirname, '..', main);
/** For spawn(process.execPath, SERVER_ARGS): the Node flags, then the server's entry point. */
const SERVER_ARGS = [...args, SERVER_MAIN];

module.exports = { SERVER_ARGS, SERVER_MAIN };
