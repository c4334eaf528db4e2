import { messages } from '@altwise/contracts/messages';
import { type NotifyOptions, notify } from '../components/ui/notify.ts';

/**
 * Copies text to the clipboard and says so in a toast: `copied` on success, the product spec's 'Failed to copy
 * text' when the browser refuses (no permission, insecure context). `options` place both toasts.
 */
export async function copyText(
  text: string,
  copied: string,
  options: { success?: NotifyOptions; failure?: NotifyOptions } = {},
): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    notify.success(copied, options.success);
    return true;
  } catch (error) {
    console.error(messages.images.copyFailed, error);
    notify.error(messages.images.copyFailed, options.failure);
    return false;
  }
}
