/** The guard in front of every route but the login (features/session/guard.tsx). */
import { renderApp, screen } from '../testing/render';

// Whole-app renders with antd under a shared 2-core machine: allow more than jest's 5 s default.
jest.setTimeout(30_000);

describe('guard', () => {
  it('sends a visitor without a token to the login, carrying the path, and clears stored data', async () => {
    localStorage.setItem('userName', 'stale');
    const { router } = await renderApp({ path: '/hotel/device?page=2' });
    expect(await screen.findByLabelText('用户名')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/sys/verify');
    expect(router.state.location.state).toMatchObject({ from: { pathname: '/hotel/device', search: '?page=2' } });
    expect(router.state.historyAction).toBe('REPLACE');
    expect(localStorage.getItem('userName')).toBeNull();
  });
});
