import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { storeSession } from '../test/render-app.tsx';
import { AuthProvider, type AuthState, useAuth } from './auth.tsx';

let auth: AuthState;

function Probe() {
  auth = useAuth();
  return (
    <p>
      {auth.isAuthenticated ? `Signed in as ${auth.user?.firstName ?? 'someone'}` : 'Signed out'}
      <button type="button" onClick={auth.logout}>
        Log out
      </button>
    </p>
  );
}

function renderProbe() {
  const navigateTo = vi.fn<(url: string) => void>();
  render(
    <AuthProvider navigateTo={navigateTo}>
      <Probe />
    </AuthProvider>,
  );
  return { navigateTo };
}

const user = { id: 7, username: 'grace', email: 'grace@example.com', firstName: 'Grace', lastName: 'Hopper' };

describe('auth state', () => {
  it('starts signed in with the stored user when a token is stored', () => {
    storeSession();
    renderProbe();
    expect(screen.getByText('Signed in as Ada')).toBeInTheDocument();
  });

  it('starts signed out without a token', () => {
    renderProbe();
    expect(screen.getByText('Signed out')).toBeInTheDocument();
  });

  it('login stores token, user and userId, signs in, and waits the post-login delay', async () => {
    vi.useFakeTimers();
    renderProbe();
    let done = false;
    act(() => {
      void auth.login({ token: 'jwt-1', user }).then(() => {
        done = true;
      });
    });
    expect(screen.getByText('Signed in as Grace')).toBeInTheDocument();
    expect(localStorage.getItem('token')).toBe('jwt-1');
    expect(JSON.parse(localStorage.getItem('user') ?? '{}')).toEqual({ ...user, id: '7' });
    expect(localStorage.getItem('userId')).toBe('7');
    await act(() => vi.advanceTimersByTimeAsync(99));
    expect(done).toBe(false);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(done).toBe(true);
    vi.useRealTimers();
  });

  it('login without a token logs an error and changes nothing', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    renderProbe();
    await act(() => auth.login({ user }));
    expect(error).toHaveBeenCalled();
    expect(screen.getByText('Signed out')).toBeInTheDocument();
    expect(localStorage.length).toBe(0);
  });

  it('logout clears the state, wipes local storage and loads /login', async () => {
    storeSession();
    localStorage.setItem('something-else', 'x');
    const { navigateTo } = renderProbe();
    await userEvent.click(screen.getByRole('button', { name: 'Log out' }));
    expect(screen.getByText('Signed out')).toBeInTheDocument();
    expect(localStorage.length).toBe(0);
    expect(navigateTo).toHaveBeenCalledWith('/login');
  });
});
