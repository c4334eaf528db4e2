import { messages } from '@altwise/contracts/messages';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-error.ts';
import { contactErrorMessage } from './send-contact-message.ts';

const apiError = (status: number, message: string) => new ApiError({ status, code: 'X', message });

describe('contactErrorMessage (the product spec §8)', () => {
  it("shows the server's message when it is one a person can act on", () => {
    expect(contactErrorMessage(apiError(400, 'Message must be at most 5000 characters'))).toBe(
      'Message must be at most 5000 characters',
    );
    expect(contactErrorMessage(apiError(429, 'Too many messages, try again in a minute'))).toBe(
      'Too many messages, try again in a minute',
    );
  });

  it('falls back to the generic failure text otherwise', () => {
    expect(contactErrorMessage(apiError(400, messages.common.unknownError))).toBe(messages.contact.failed);
    expect(contactErrorMessage(apiError(404, 'Route POST /api/v1/email/send not found'))).toBe(
      messages.contact.failed,
    );
    expect(contactErrorMessage(apiError(500, 'Internal Server Error'))).toBe(messages.contact.failed);
  });

  it('says so when the server could not be reached', () => {
    expect(contactErrorMessage(apiError(0, 'Could not reach the server.'))).toBe(
      messages.contact.networkFailed,
    );
    expect(contactErrorMessage(new TypeError('fetch failed'))).toBe(messages.contact.networkFailed);
  });
});
