import { describe, expect, it, vi } from 'vitest';
import {
  clearToken,
  readToken,
  readUser,
  readUserId,
  subscribeToSession,
  writeToken,
  writeUser,
} from './auth-storage.ts';

describe('auth storage', () => {
  it('uses the keys token, user and userId', () => {
    writeToken('t');
    writeUser({ id: '1', username: 'ada', email: 'a@example.com', firstName: 'Ada', lastName: 'L' });
    expect(localStorage.getItem('token')).toBe('t');
    expect(JSON.parse(localStorage.getItem('user') ?? '')).toMatchObject({ id: '1', firstName: 'Ada' });
    expect(localStorage.getItem('userId')).toBe('1');
  });

  it("falls back to the stored user's id when userId is missing", () => {
    localStorage.setItem('user', JSON.stringify({ id: 42, email: 'x@example.com' }));
    expect(readUserId()).toBe('42');
    expect(readUser()).toEqual({
      id: '42',
      username: '',
      email: 'x@example.com',
      firstName: '',
      lastName: '',
    });
  });

  it('treats a corrupt user record as no user', () => {
    localStorage.setItem('user', '{not json');
    expect(readUser()).toBeNull();
    expect(readUserId()).toBeNull();
  });

  it('tells subscribers when the token is cleared', () => {
    const listener = vi.fn();
    const unsubscribe = subscribeToSession(listener);
    writeToken('t');
    clearToken();
    expect(readToken()).toBeNull();
    expect(listener).toHaveBeenCalledTimes(2);
    unsubscribe();
  });
});
