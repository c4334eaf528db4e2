import type { PaymentsConfig } from '../../config.ts';
import { createDodoProvider } from './dodo-provider.ts';
import type { PaymentProvider } from './payment-provider.ts';
import { createSandboxProvider, type SandboxProvider, type WebhookDelivery } from './sandbox-provider.ts';
import { resolveSandboxWebhookSecret } from './webhook-secret.ts';

/** The configured provider; `sandbox` is set when the embedded one runs (it also serves /buy/…). */
export async function createPaymentProvider(
  config: PaymentsConfig,
  options: { dataDir: string; deliver: WebhookDelivery },
): Promise<{ provider: PaymentProvider; sandbox: SandboxProvider | null }> {
  if (config.provider === 'dodo') return { provider: createDodoProvider(config), sandbox: null };
  const secret = await resolveSandboxWebhookSecret(config.webhookSecret, options.dataDir);
  const sandbox = createSandboxProvider({ secret, deliver: options.deliver });
  return { provider: sandbox, sandbox };
}
