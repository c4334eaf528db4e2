import { z } from 'zod';
import { EMAIL_MAX, NAME_MAX } from './auth.ts';
import { CONTACT_MESSAGE_MAX_CHARS } from './limits.ts';
import { messages } from './messages.ts';

const requiredText = (required: string, max: number, tooLong: string) =>
  z.string({ error: required }).trim().min(1, required).max(max, tooLong);

/** POST /email/send: the contact message of the product spec §3 (caps every field). */
export const contactRequestSchema = z.strictObject({
  firstName: requiredText(
    'First name is required',
    NAME_MAX,
    `First name must be at most ${NAME_MAX} characters`,
  ),
  lastName: requiredText(
    'Last name is required',
    NAME_MAX,
    `Last name must be at most ${NAME_MAX} characters`,
  ),
  email: z
    .string({ error: 'Email is required' })
    .trim()
    .min(1, 'Email is required')
    .max(EMAIL_MAX, `Email must be at most ${EMAIL_MAX} characters`)
    .pipe(z.email('Enter a valid email')),
  message: requiredText(
    'A message is required',
    CONTACT_MESSAGE_MAX_CHARS,
    `Message must be at most ${CONTACT_MESSAGE_MAX_CHARS.toLocaleString('en-US')} characters`,
  ),
});
export type ContactRequest = z.infer<typeof contactRequestSchema>;

export const contactResponseSchema = z.object({
  success: z.literal(true),
  message: z.literal(messages.contact.success),
});
export type ContactResponse = z.infer<typeof contactResponseSchema>;
