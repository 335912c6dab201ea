/**
 * The arguments the benches start the built server with: those of `npm run serve` (package.json),
 * its Node flags included, so what they measure is the product as it is run.
 */
const path = require('node:path');

const [command, ...args] = require('../../package.json').scripts.serve.split(/\s+/);
if (command !== 'node') throw new Error(`package.json "serve" should run node, not ${command}`);
const main = args.pop();

/** For spawn(process.execPath, SERVER_ARGS): the Node flags, then the server's entry point. */
const SERVER_ARGS = [...args, path.resolve(__dirname, '../..', main)];

module.exports = { SERVER_ARGS };
