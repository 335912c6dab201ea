/**
 * jsdom stand-ins antd needs (STACK-NOTES), jest-dom matchers, and the msw server at the network
 * edge, reset between tests together with local storage (once the tests' persistors have written
 * their last).
 */
import '@testing-library/jest-dom';
import { configure } from '@testing-library/react';

import { settlePersistors } from './testing/persistors';
import { server } from './testing/server';

Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  }),
});

/** Node's own MessageChannel keeps jest alive at exit; antd only needs the message to arrive. */
class ImmediateMessageChannel {
  port1: { onmessage: ((event: { data: unknown }) => void) | null; postMessage: (data: unknown) => void; close: () => void };
  port2: { onmessage: ((event: { data: unknown }) => void) | null; postMessage: (data: unknown) => void; close: () => void };
  constructor() {
    const deliver = (target: { onmessage: ((event: { data: unknown }) => void) | null }) => (data: unknown) => setTimeout(() => target.onmessage?.({ data }), 0);
    this.port1 = { onmessage: null, postMessage: () => undefined, close: () => undefined };
    this.port2 = { onmessage: null, postMessage: () => undefined, close: () => undefined };
    this.port1.postMessage = deliver(this.port2);
    this.port2.postMessage = deliver(this.port1);
  }
}
Object.defineProperty(globalThis, 'MessageChannel', { writable: true, value: ImmediateMessageChannel });

/** antd measures layouts with ResizeObserver, which jsdom lacks; nothing resizes in tests. */
class StillResizeObserver {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}
Object.defineProperty(window, 'ResizeObserver', { writable: true, value: StillResizeObserver });

/** jsdom does not implement pseudo-elements and throws on them; antd asks for them while measuring. */
const computeStyle = window.getComputedStyle.bind(window);
window.getComputedStyle = (element: Element) => computeStyle(element);

// Lazy screens and antd's runtime styles are slow on a shared 2-core machine: wait up to 10 s.
configure({ asyncUtilTimeout: 10_000 });

/**
 * A call no handler answers fails the test it was made in: msw's own 'error' strategy only prints,
 * and the screen under test then quietly shows a network error the test never looked at.
 */
const unhandled: string[] = [];
beforeAll(() =>
  server.listen({
    onUnhandledRequest: (request, print) => {
      unhandled.push(`${request.method} ${new URL(request.url).pathname}`);
      print.error();
    },
  }),
);
afterEach(async () => {
  const calls = unhandled.splice(0);
  server.resetHandlers();
  await settlePersistors();
  localStorage.clear();
  expect(calls).toEqual([]);
});
afterAll(() => server.close());
