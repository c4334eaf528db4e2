import { z } from 'zod';
import { errorResponseSchema } from './errors.ts';
import { languageSchema } from './generation.ts';
import { messages } from './messages.ts';
import { isCommonPassword, PASSWORD_MIN, passwordRuleMessages } from './password-rules.ts';

/** Length caps every account field shares (names ≤ 100, email ≤ 254, password ≤ 256). */
export const NAME_MAX = 100;
export const EMAIL_MAX = 254;
export const PASSWORD_MAX = 256;

const m = messages;

const requiredText = (required: string, max: number, label: string) =>
  z
    .string({ error: required })
    .trim()
    .min(1, required)
    .max(max, `${label} must be at most ${max} characters`);

const email = (invalid: string, required: string) =>
  z
    .string({ error: required })
    .trim()
    .min(1, required)
    .max(EMAIL_MAX, `Email must be at most ${EMAIL_MAX} characters`)
    .pipe(z.email(invalid));

const password = (required: string) =>
  z
    .string({ error: required })
    .min(1, required)
    .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`);

/** A password being chosen (register, reset, change): the rules of ADR 074 on top of `password`. */
const newPassword = (required: string) =>
  z
    .string({ error: required })
    .min(1, required)
    // An empty field is only "required"; no check aborts, so the form's match check still runs.
    .refine((value) => value.length === 0 || value.length >= PASSWORD_MIN, passwordRuleMessages.tooShort)
    .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`)
    .refine((value) => !isCommonPassword(value), passwordRuleMessages.tooCommon);

/** The register form (the product spec §5), also the server's check of the same fields. */
export const registerFormSchema = z
  .strictObject({
    firstName: requiredText(m.register.firstNameRequired, NAME_MAX, 'First name'),
    lastName: requiredText(m.register.lastNameRequired, NAME_MAX, 'Last name'),
    email: email(m.register.emailInvalid, m.register.emailRequired),
    password: newPassword(m.register.passwordRequired),
    confirmPassword: z.string({ error: m.register.confirmRequired }).min(1, m.register.confirmRequired),
  })
  .refine((v) => v.password === v.confirmPassword, {
    message: m.register.passwordsMustMatch,
    path: ['confirmPassword'],
  });
export type RegisterForm = z.infer<typeof registerFormSchema>;

/** POST /users/register: the browser may leave confirmPassword out; when sent it must match. */
export const registerRequestSchema = z
  .strictObject({
    firstName: requiredText(m.register.firstNameRequired, NAME_MAX, 'First name'),
    lastName: requiredText(m.register.lastNameRequired, NAME_MAX, 'Last name'),
    email: email(m.register.emailInvalid, m.register.emailRequired),
    password: newPassword(m.register.passwordRequired),
    confirmPassword: z.string().optional(),
  })
  .refine((v) => v.confirmPassword === undefined || v.password === v.confirmPassword, {
    message: m.register.passwordsMustMatch,
    path: ['confirmPassword'],
  });
export type RegisterRequest = z.infer<typeof registerRequestSchema>;

export const loginRequestSchema = z.strictObject({
  email: email(m.login.emailInvalid, m.login.required),
  password: password(m.login.required),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

/** The user object the browser stores under the `user` key (the product spec §3). */
export const sessionUserSchema = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
});
export type SessionUser = z.infer<typeof sessionUserSchema>;

export const statusMessageSchema = z.object({
  status: z.enum(['success', 'error']),
  message: z.string(),
});

export const loginResponseSchema = z.object({
  status: z.literal('success'),
  message: z.string(),
  token: z.string(),
  user: sessionUserSchema,
});
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const contentHistoryItemSchema = z.object({ content: z.string(), createdAt: z.string() });

export const profileUserSchema = sessionUserSchema.extend({
  image_credits: z.number().int(),
  imagecount: z.number().int(),
  subscriptionPlan: z.string(),
  apiRequestCount: z.number().int(),
  monthlyRequestCount: z.number().int(),
  contentHistory: z.array(contentHistoryItemSchema),
  /** BCP 47 tag alt text is written in when a request names none; null: the engine's default. */
  defaultLanguage: z.string().nullable().optional(),
});
export const profileResponseSchema = z.object({ user: profileUserSchema });
export type ProfileUser = z.infer<typeof profileUserSchema>;

export const updateProfileRequestSchema = z.strictObject({
  firstName: requiredText(m.register.firstNameRequired, NAME_MAX, 'First name'),
  lastName: requiredText(m.register.lastNameRequired, NAME_MAX, 'Last name'),
  /** The account's default alt-text language; empty or null clears it, absent keeps it. */
  defaultLanguage: z
    .union([z.literal(''), languageSchema])
    .nullable()
    .optional(),
});

export const changePasswordRequestSchema = z.strictObject({
  currentPassword: password('Current password is required'),
  newPassword: newPassword('New password is required'),
});

/** The account screen's change-password form adds the confirmation (the product spec §5). */
export const changePasswordFormSchema = z
  .strictObject({
    currentPassword: password('Current password is required'),
    newPassword: newPassword('New password is required'),
    confirmNewPassword: z.string(),
  })
  .refine((v) => v.newPassword === v.confirmNewPassword, {
    message: m.account.passwordsDoNotMatch,
    path: ['confirmNewPassword'],
  });

export const emailOnlyRequestSchema = z.strictObject({
  email: email(m.register.emailInvalid, m.register.emailRequired),
});

export const resetPasswordRequestSchema = z.strictObject({
  token: z.string().min(1, 'The reset link is incomplete. Please use the link from the email again.'),
  password: newPassword(m.register.passwordRequired),
});

export const registrationEmailRequestSchema = z.strictObject({
  firstName: requiredText(m.register.firstNameRequired, NAME_MAX, 'First name'),
  lastName: requiredText(m.register.lastNameRequired, NAME_MAX, 'Last name'),
  email: email(m.register.emailInvalid, m.register.emailRequired),
});

/**
 * POST /users/auth/google. The product spec fields are kept for compatibility, but the server trusts only
 * the verified `credential` (a Google ID token); the other fields must agree with it.
 */
export const googleAuthRequestSchema = z.strictObject({
  credential: z.string().min(1, 'The Google sign-in credential is missing. Please try again.'),
  email: z.string().max(EMAIL_MAX).optional(),
  googleId: z.string().max(255).optional(),
  firstName: z.string().max(NAME_MAX).optional(),
  lastName: z.string().max(NAME_MAX).optional(),
  provider: z.literal('google').optional(),
  isLogin: z.boolean().optional(),
});

export const googleAuthResponseSchema = z.object({
  status: z.literal('success'),
  isExistingUser: z.boolean(),
  message: z.string(),
  token: z.string(),
  user: sessionUserSchema,
});

/** Texts of the account calls that the product spec leaves to the server. */
export const accountMessages = {
  registered:
    'Your account has been created. We have emailed you a link to confirm your address; please open it before logging in.',
  emailTaken: 'An account with this email already exists',
  invalidCredentials: 'Invalid email or password',
  emailNotConfirmed:
    'Please confirm your email address before logging in. Check your inbox or spam folder for the link, or ask for a new one with "Resend confirmation email".',
  confirmationResent:
    'If an account with this address is waiting for confirmation, a new confirmation link is on its way.',
  emailConfirmed: 'Email confirmed successfully!',
  alreadyConfirmed: 'This email address is already confirmed. You can log in.',
  confirmationInvalid:
    'This confirmation link is not valid. Please use the latest link we emailed you, or ask for a new one.',
  confirmationExpired:
    'This confirmation link has expired. Please ask for a new one with "Resend confirmation email".',
  resetRequested: 'If an account exists for this address, we have emailed a link to reset its password.',
  resetInvalid: 'This password reset link is not valid or has already been used. Please ask for a new one.',
  resetExpired: 'This password reset link has expired. Please ask for a new one.',
  passwordReset: 'Your password has been reset. You can now log in with your new password.',
  profileUpdated: 'Profile updated successfully!',
  passwordUpdated: 'Password updated successfully!',
  wrongCurrentPassword: 'The current password is incorrect.',
  noPasswordYet:
    'This account signs in with Google and has no password yet. Use "Forgot password?" on the login screen to set one.',
  googlePasswordLogin:
    'This account signs in with Google. Use "Sign in with Google", or set a password with "Forgot password?".',
  googleDisabled: 'Google sign-in is not enabled on this server.',
  googleInvalid: 'Your Google sign-in could not be verified. Please try again.',
  googleExpired: 'Your Google sign-in has expired. Please try again.',
  googleUnverified: 'Your Google account email address is not verified, so it cannot be used to sign in.',
  googleMismatch: 'The Google sign-in details do not match the signed Google credential.',
  registrationEmailQueued: 'Notification email queued',
} as const;

/** POST /users/register, /users/resend-confirmation, /users/forgot-password, /users/reset-password. */
export const statusMessageResponseSchema = z.object({
  status: z.literal('success'),
  message: z.string(),
});
export type StatusMessageResponse = z.infer<typeof statusMessageResponseSchema>;

/**
 * GET /users/confirm-email/{token}: 200 with status 'success'; 4xx with status 'error' plus the
 * usual error `code` (TOKEN_INVALID 400, TOKEN_EXPIRED 410, EMAIL_ALREADY_CONFIRMED 409).
 */
export const confirmEmailResponseSchema = z.object({
  status: z.enum(['success', 'error']),
  message: z.string(),
  code: z.string().optional(),
});
export type ConfirmEmailResponse = z.infer<typeof confirmEmailResponseSchema>;
/** Its failures: the one error shape plus `status: 'error'`. */
export const confirmEmailErrorResponseSchema = errorResponseSchema.extend({ status: z.literal('error') });

/** PUT /users/update-profile. */
export const updateProfileResponseSchema = z.object({
  status: z.literal('success'),
  message: z.string(),
  user: sessionUserSchema,
});

/**
 * PUT /users/change-password. Changing the password ends every session issued before, including
 * the one that asked; the answer carries a fresh token the browser stores in place of the old one.
 */
export const changePasswordResponseSchema = z.object({
  status: z.literal('success'),
  message: z.string(),
  token: z.string(),
});

/** The reset-password screen: new password twice. */
export const resetPasswordFormSchema = z
  .strictObject({
    password: newPassword(m.register.passwordRequired),
    confirmPassword: z.string({ error: m.register.confirmRequired }).min(1, m.register.confirmRequired),
  })
  .refine((v) => v.password === v.confirmPassword, {
    message: m.register.passwordsMustMatch,
    path: ['confirmPassword'],
  });

/** POST /email/registration: always `{success: true}` (it never tells whether an address is registered). */
export const registrationEmailResponseSchema = z.object({ success: z.literal(true) });

/** GET /api/v1/config: what the browser needs to know about this server. */
export const publicConfigResponseSchema = z.object({
  /** The Google OAuth client id for the sign-in button; null when Google sign-in is off. */
  googleClientId: z.string().nullable(),
});
export type PublicConfigResponse = z.infer<typeof publicConfigResponseSchema>;

/**
 * DELETE /users/me (ADR 022): the account's password confirms that its owner is at the keyboard.
 * 204 on success; a wrong password is 400 and deletes nothing.
 */
export const deleteAccountRequestSchema = z.strictObject({
  password: password('Enter your password to delete your account.'),
});
export type DeleteAccountRequest = z.infer<typeof deleteAccountRequestSchema>;

/** Texts of account deletion, on the server and on the /account screen. */
export const accountDeletionMessages = {
  heading: 'Delete account',
  warning:
    'Deleting your account removes your images, alt texts, uploaded and generated files and generation history at once, ends every session and stops any subscription from renewing. Unused credits are lost. Receipts of your payments are kept without your name or email. This cannot be undone.',
  passwordLabel: 'Password',
  button: 'Delete account',
  dialogTitle: 'Delete your account?',
  dialogText: 'Your account and everything in it will be deleted now. This cannot be undone.',
  confirm: 'Yes, delete my account',
  cancel: 'Cancel',
  deleting: 'Deleting...',
  deleted: 'Your account has been deleted.',
  wrongPassword: 'The password is incorrect. Your account has not been deleted.',
  noPassword:
    'This account signs in with Google and has no password. Use "Forgot password?" on the login screen to set one, then delete the account with it.',
  failed: 'Your account could not be deleted. Please try again.',
} as const;
