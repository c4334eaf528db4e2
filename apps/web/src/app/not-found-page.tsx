import { messages } from '@altwise/contracts/messages';
import { routes } from '@altwise/contracts/routes';
import { Link } from 'react-router';
import { buttonClasses } from '../components/ui/button.tsx';
import { usePageTitle } from '../lib/page-title.ts';

export function NotFoundPage() {
  usePageTitle(messages.common.notFoundTitle);
  return (
    <div className="mx-auto max-w-2xl px-4 py-16 sm:py-24">
      <p className="text-sm font-semibold text-indigo-700">Error 404</p>
      <h1 className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
        {messages.common.notFoundTitle}
      </h1>
      <p className="mt-4 text-lg text-slate-700">{messages.common.notFoundBody}</p>
      <div className="mt-8 flex flex-wrap gap-3">
        <Link to={routes.home} className={buttonClasses()}>
          Go to the home page
        </Link>
        <Link to={routes.support} className={buttonClasses({ variant: 'secondary' })}>
          Contact support
        </Link>
      </div>
    </div>
  );
}
