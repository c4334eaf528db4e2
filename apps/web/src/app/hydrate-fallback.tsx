import { messages } from '@altwise/contracts/messages';
import { Spinner } from '../components/ui/spinner.tsx';

/** Shown while the first page's chunk downloads, before the app frame can render. */
export function HydrateFallback() {
  return (
    <main id="main" className="flex min-h-dvh items-center justify-center">
      <div role="status" className="flex items-center gap-3 text-slate-800">
        <Spinner className="size-6 text-indigo-700" />
        <span>{messages.common.loading}</span>
      </div>
    </main>
  );
}
