/** The app's log lines as written (pino JSON text), for tests that read what was logged. */
import { Writable } from 'node:stream';

export function captureLog(): { lines: string[]; stream: Writable } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, stream };
}
