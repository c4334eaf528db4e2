import { routes } from '@altwise/contracts/routes';
import { ButtonLink } from '../../components/ui/button-link.tsx';
import { usePageTitle } from '../../lib/page-title.ts';

export function HelpPage() {
  usePageTitle('Help');
  return (
    <div className="mx-auto max-w-2xl px-4 py-16 sm:py-24">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">Need Help?</h1>
      <p className="mt-4 text-lg text-slate-700">
        Questions about alt text, credits, plans or your account? Our support team will get back to you.
      </p>
      <div className="mt-8">
        <ButtonLink to={routes.support}>Contact Support</ButtonLink>
      </div>
    </div>
  );
}
