import { routes } from '@altwise/contracts/routes';
import { Link } from 'react-router';

/** The mark is decorative; the visible word "Altwise" names the link. */
export function Logo() {
  return (
    <Link to={routes.home} className="flex items-center gap-2 rounded-md text-lg font-bold text-slate-900">
      <svg viewBox="0 0 32 32" className="size-8" aria-hidden="true" focusable="false">
        <rect width="32" height="32" rx="7" fill="#4338ca" />
        <path d="M7 23 13.5 9h2L22 23h-3.2l-1.3-3h-6.1l-1.3 3zm5.3-5.8h4.1L14.4 12.5z" fill="#fff" />
        <rect x="22.5" y="9" width="2.5" height="14" rx="1.25" fill="#a5b4fc" />
      </svg>
      <span>Altwise</span>
      <span className="sr-only">, home</span>
    </Link>
  );
}
