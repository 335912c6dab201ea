/** Relative times: recency as people read it, the exact Shanghai time on hover, kept current. */
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { RelativeTime } from '../../../src/client/components/relative-time';
import { Unstyled } from '../testing/unstyled';

const NOW = Date.UTC(2026, 0, 1, 4, 0, 0); // 2026-01-01 12:00:00 in Shanghai
const MINUTE = 60_000;

beforeEach(() => {
  jest.useFakeTimers({ now: NOW });
});
afterEach(() => {
  jest.useRealTimers();
});

const show = (value: number | null, empty?: string) => render(<RelativeTime value={value} empty={empty} />, { wrapper: Unstyled });

describe('relative time', () => {
  it.each([
    [NOW - 3 * MINUTE, '3 分钟前'],
    [NOW - 20_000, '几秒前'],
    [NOW - 5 * 60 * MINUTE, '5 小时前'],
    [NOW - 2 * 24 * 60 * MINUTE, '2 天前'],
    [NOW + 10 * MINUTE, '10 分钟后'],
  ])('shows %i as %s', (value, text) => {
    show(value);
    expect(screen.getByText(text)).toBeInTheDocument();
  });

  it('shows the exact time in Asia/Shanghai on hover and in the datetime attribute', async () => {
    const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    show(NOW - 3 * MINUTE);
    const time = screen.getByText('3 分钟前');
    expect(time.tagName).toBe('TIME');
    expect(time).toHaveAttribute('datetime', new Date(NOW - 3 * MINUTE).toISOString());
    await user.hover(time);
    act(() => {
      jest.advanceTimersByTime(500);
    });
    expect(await screen.findByRole('tooltip')).toHaveTextContent('2026-01-01 11:57:00');
  });

  it('moves on as time passes', () => {
    show(NOW - 3 * MINUTE);
    act(() => {
      jest.advanceTimersByTime(2 * MINUTE);
    });
    expect(screen.getByText('5 分钟前')).toBeInTheDocument();
  });

  it('shows the placeholder for a missing time', () => {
    show(null, '尚未上报');
    expect(screen.getByText('尚未上报')).toBeInTheDocument();
  });
});
