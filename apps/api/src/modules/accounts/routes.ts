import {
  changePasswordRequestSchema,
  changePasswordResponseSchema,
  confirmEmailErrorResponseSchema,
  confirmEmailResponseSchema,
  emailOnlyRequestSchema,
  googleAuthRequestSchema,
  googleAuthResponseSchema,
  loginRequestSchema,
  loginResponseSchema,
  profileResponseSchema,
  publicConfigResponseSchema,
  registerRequestSchema,
  registrationEmailRequestSchema,
  registrationEmailResponseSchema,
  resetPasswordRequestSchema,
  statusMessageResponseSchema,
  updateProfileRequestSchema,
  updateProfileResponseSchema,
} from '@altwise/contracts/auth';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppConfig } from '../../config.ts';
import { createAuthRateLimits } from './rate-limits.ts';
import type { AccountsService } from './service.ts';

/** Account calls of the product spec §7 plus password reset and resending the confirmation, under /api/v1. */
export async function accountsRoutes(
  app: FastifyInstance,
  options: { accounts: AccountsService; config: AppConfig },
) {
  const { accounts, config } = options;
  const limit = await createAuthRateLimits(app, config.auth.rateLimit);
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const noStore = { 'cache-control': 'no-store' };

  typed.get(
    '/config',
    {
      config: { public: true },
      schema: {
        tags: ['config'],
        summary: 'What the browser needs to know about this server',
        description: '`googleClientId` is null when Google sign-in is off: hide the Google buttons.',
        response: { 200: publicConfigResponseSchema },
      },
    },
    async () => ({ googleClientId: config.auth.google?.clientId ?? null }),
  );

  typed.post(
    '/users/register',
    {
      config: { public: true },
      preHandler: limit('register'),
      schema: {
        tags: ['accounts'],
        summary: 'Create an account and email a confirmation link',
        description:
          '409 CONFLICT when the address (in any letter case) already has an account; 429 with Retry-After when rate limited.',
        body: registerRequestSchema,
        response: { 201: statusMessageResponseSchema },
      },
    },
    async (request, reply) => reply.code(201).send(await accounts.register(request.body)),
  );

  typed.get(
    '/users/confirm-email/:token',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Confirm an email address with the emailed link (gives the 25 free credits)',
        description:
          "4xx answers carry status 'error' and a code: 400 TOKEN_INVALID, 409 EMAIL_ALREADY_CONFIRMED, 410 TOKEN_EXPIRED.",
        // No length rule here: a validation error would not have the status field; the service names bad tokens.
        params: z.object({ token: z.string() }),
        response: { 200: confirmEmailResponseSchema, '4xx': confirmEmailErrorResponseSchema },
      },
      // the product spec's confirmation page reads `status` from failures too.
      config: { public: true, errorExtras: () => ({ status: 'error' }) },
    },
    async (request, reply) => {
      reply.headers(noStore);
      return accounts.confirmEmail(request.params.token);
    },
  );

  typed.post(
    '/users/resend-confirmation',
    {
      config: { public: true },
      preHandler: limit('resend-confirmation'),
      schema: {
        tags: ['accounts'],
        summary: 'Email a new confirmation link to an unconfirmed account',
        description: 'Answers the same whether or not the address has an account.',
        body: emailOnlyRequestSchema,
        response: { 200: statusMessageResponseSchema },
      },
    },
    async (request) => accounts.resendConfirmation(request.body.email),
  );

  typed.post(
    '/users/login',
    {
      config: { public: true },
      preHandler: limit('login'),
      schema: {
        tags: ['accounts'],
        summary: 'Log in with email and password',
        description:
          '401 UNAUTHORIZED "Invalid email or password"; 403 EMAIL_NOT_CONFIRMED before the address is confirmed (resend with /users/resend-confirmation).',
        body: loginRequestSchema,
        response: { 200: loginResponseSchema },
      },
    },
    async (request) => accounts.login(request.body.email, request.body.password),
  );

  typed.get(
    '/users/profile',
    {
      schema: {
        tags: ['accounts'],
        summary: "The signed-in user's profile and credits",
        response: { 200: profileResponseSchema },
      },
    },
    async (request, reply) => {
      reply.headers(noStore);
      return accounts.getProfile(request.user.id);
    },
  );

  typed.put(
    '/users/update-profile',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Change first and last name',
        body: updateProfileRequestSchema,
        response: { 200: updateProfileResponseSchema },
      },
    },
    async (request) => accounts.updateProfile(request.user.id, request.body),
  );

  typed.put(
    '/users/change-password',
    {
      onRequest: limit('change-password'),
      // Not with an API key (ADR 028): 403 SESSION_REQUIRED.
      config: { sessionOnly: true },
      schema: {
        tags: ['accounts'],
        summary: 'Change the password; ends every other session',
        description:
          'Answers a new token to store in place of the old one (all earlier tokens stop working). 400 when the current password is wrong or the account has no password (Google only).',
        body: changePasswordRequestSchema,
        response: { 200: changePasswordResponseSchema },
      },
    },
    async (request) => accounts.changePassword(request.user.id, request.body),
  );

  typed.post(
    '/users/forgot-password',
    {
      config: { public: true },
      preHandler: limit('forgot-password'),
      schema: {
        tags: ['accounts'],
        summary: 'Email a password reset link (valid 1 hour, single use)',
        description: 'Answers the same whether or not the address has an account.',
        body: emailOnlyRequestSchema,
        response: { 200: statusMessageResponseSchema },
      },
    },
    async (request) => accounts.forgotPassword(request.body.email),
  );

  typed.post(
    '/users/reset-password',
    {
      config: { public: true },
      preHandler: limit('reset-password'),
      schema: {
        tags: ['accounts'],
        summary: 'Set a new password with the emailed token; ends every session',
        description: '400 TOKEN_INVALID for an unknown or used link, 410 TOKEN_EXPIRED for an expired one.',
        body: resetPasswordRequestSchema,
        response: { 200: statusMessageResponseSchema },
      },
    },
    async (request) => accounts.resetPassword(request.body.token, request.body.password),
  );

  typed.post(
    '/users/auth/google',
    {
      config: { public: true },
      preHandler: limit('google'),
      schema: {
        tags: ['accounts'],
        summary: 'Sign up or log in with a Google ID token (the `credential` from Google Identity Services)',
        description:
          'The server verifies the credential (signature, audience, issuer, expiry, verified email) and ignores nothing else: email and googleId, when sent, must match it. 404 when Google sign-in is off, or with isLogin for an unknown account; 401 for an invalid or expired credential.',
        body: googleAuthRequestSchema,
        response: { 200: googleAuthResponseSchema },
      },
    },
    async (request) => accounts.signInWithGoogle(request.body),
  );

  typed.post(
    '/email/registration',
    {
      config: { public: true },
      preHandler: limit('registration-email'),
      schema: {
        tags: ['accounts'],
        summary: 'Send the welcome email to a registered address (once per account)',
        description:
          'Always {success: true}. Mails only an address that has an account, once, with the names stored on the account.',
        body: registrationEmailRequestSchema,
        response: { 200: registrationEmailResponseSchema },
      },
    },
    async (request) => accounts.sendRegistrationEmail(request.body.email),
  );
}
