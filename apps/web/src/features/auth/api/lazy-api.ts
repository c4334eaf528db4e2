/**
 * The API client and the auth contracts, loaded on the first call. Both bring zod (the error body's and the
 * answers' schemas), which the sign-in pages' light entry leaves out of what it loads first (ADR 038).
 */
export async function authApi() {
  const [{ api }, contracts] = await Promise.all([
    import('../../../lib/api-client.ts'),
    import('@altwise/contracts/auth'),
  ]);
  return { api, contracts };
}
