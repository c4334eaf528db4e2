import { describe, expect, it } from 'vitest';
import {
  confirmEmailResponseSchema,
  loginRequestSchema,
  publicConfigResponseSchema,
  registerFormSchema,
  registerRequestSchema,
  resetPasswordFormSchema,
} from './auth.ts';

const firstMessages = (result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) => Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));

describe('register form (the product spec §5)', () => {
  it('names every missing field with the spec message', () => {
    const result = registerFormSchema.safeParse({
      firstName: '',
      lastName: '',
      email: '',
      password: '',
      confirmPassword: '',
    });
    expect(firstMessages(result)).toMatchObject({
      firstName: 'First name is required',
      lastName: 'Last name is required',
      email: 'Email is required',
      password: 'Password is required',
      confirmPassword: 'Password confirmation is required',
    });
  });

  it('rejects an invalid email and mismatched passwords', () => {
    const result = registerFormSchema.safeParse({
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'not-an-email',
      password: 'secret-1',
      confirmPassword: 'secret-2',
    });
    expect(firstMessages(result)).toEqual({
      email: 'Enter a valid email',
      confirmPassword: 'Passwords must match',
    });
  });

  it('refuses overlong names and extra fields on the request', () => {
    const result = registerRequestSchema.safeParse({
      firstName: 'x'.repeat(101),
      lastName: 'L',
      email: 'a@b.co',
      password: 'p',
      isAdmin: true,
    });
    expect(result.success).toBe(false);
    expect(firstMessages(result).firstName).toBe('First name must be at most 100 characters');
  });
});

describe('login form (the product spec §5)', () => {
  it('says Required and Invalid email address', () => {
    expect(firstMessages(loginRequestSchema.safeParse({ email: '', password: '' }))).toEqual({
      email: 'Required',
      password: 'Required',
    });
    expect(firstMessages(loginRequestSchema.safeParse({ email: 'nope', password: 'x' }))).toEqual({
      email: 'Invalid email address',
    });
  });
});

describe('reset-password form', () => {
  it('needs the password twice, matching', () => {
    expect(firstMessages(resetPasswordFormSchema.safeParse({ password: '', confirmPassword: '' }))).toEqual({
      password: 'Password is required',
      confirmPassword: 'Password confirmation is required',
    });
    expect(
      firstMessages(
        resetPasswordFormSchema.safeParse({
          password: 'harbour lights one',
          confirmPassword: 'harbour lights two',
        }),
      ),
    ).toEqual({
      confirmPassword: 'Passwords must match',
    });
  });
});

describe('account responses', () => {
  it('describes the confirmation result and the public config', () => {
    expect(
      confirmEmailResponseSchema.parse({ status: 'error', message: 'expired', code: 'TOKEN_EXPIRED' }).code,
    ).toBe('TOKEN_EXPIRED');
    expect(publicConfigResponseSchema.parse({ googleClientId: null })).toEqual({ googleClientId: null });
  });
});
