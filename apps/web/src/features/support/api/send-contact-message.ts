import { messages } from '@altwise/contracts/messages';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { isApiError } from '../../../lib/api-error.ts';

/** The contact message of the product spec §3. */
export type ContactMessage = { firstName: string; lastName: string; email: string; message: string };

/** POST /email/send (the product spec §7): public, no token. */
export function sendContactMessage(body: ContactMessage): Promise<unknown> {
  return api.post('/email/send', body, { auth: false });
}

/**
 * The error text of the product spec §8: the server's message when it says something a person can act on (a
 * validation or rate-limit message), 'Failed to send message. Please try again with correct details.'
 * otherwise, and 'Failed to send message. Please try again.' when the server could not be reached.
 */
export function contactErrorMessage(error: unknown): string {
  if (!isApiError(error)) return messages.contact.networkFailed;
  if (error.status === 0) return messages.contact.networkFailed;
  const actionable = error.status >= 400 && error.status < 500 && error.status !== 404;
  if (actionable && error.message && error.message !== messages.common.unknownError) return error.message;
  return messages.contact.failed;
}

export function useSendContactMessage() {
  return useMutation({ mutationFn: sendContactMessage });
}
