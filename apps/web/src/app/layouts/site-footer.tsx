import { Link } from 'react-router';
import { footerNavItems } from './nav-items.ts';

export function SiteFooter() {
  return (
    <footer className="border-t border-slate-200 bg-slate-50">
      <div className="mx-auto flex max-w-6xl flex-col gap-4 px-4 py-8 text-sm text-slate-700 sm:flex-row sm:items-center sm:justify-between">
        <p>© {new Date().getFullYear()} Altwise. AI alt text for every image.</p>
        <nav aria-label="Footer">
          <ul className="flex flex-wrap gap-x-6 gap-y-2">
            {footerNavItems.map((item) => (
              <li key={item.to}>
                <Link to={item.to} className="font-medium text-slate-800 underline-offset-4 hover:underline">
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </footer>
  );
}
