/** scripts/server-command.js, for the TypeScript suites that start the built server. */
/** The server's entry point (absolute), as `npm run serve` names it. */
export declare const SERVER_MAIN: string;
/** For spawn(process.execPath, SERVER_ARGS): the Node flags of `npm run serve`, then the server's entry point. */
export declare const SERVER_ARGS: readonly string[];
