import { authApi } from './lazy-api.ts';

export type RegistrationEmailRequest = { firstName: string; lastName: string; email: string };

/**
 * POST /email/registration: the welcome notification of the product spec §4, sent after a registration. A
 * failure here must not spoil the registration itself, so callers log it and go on.
 */
export async function sendRegistrationEmail(body: RegistrationEmailRequest): Promise<void> {
  try {
    const { api, contracts } = await authApi();
    await api.post('/email/registration', body, {
      auth: false,
      schema: contracts.registrationEmailResponseSchema,
    });
  } catch (error) {
    console.error('The registration notification email could not be requested.', error);
  }
}
