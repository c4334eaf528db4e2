import { routes } from '@altwise/contracts/routes';
import { Link } from 'react-router';
import { ButtonLink } from '../../components/ui/button-link.tsx';
import { usePageTitle } from '../../lib/page-title.ts';

const linkClass = 'font-semibold text-indigo-700 underline underline-offset-4 hover:no-underline';

const topics = [
  {
    title: 'Audit your site',
    body: 'Enter your site address on the Audit page. Altwise visits your pages, checks every image and scores the site. Fix the failing images with AI alt text (one credit each), review the suggestions, then download the images with their alt text or a CSV report. Add a monitor to audit the site again every day or week.',
    to: routes.audit,
    linkLabel: 'Start an audit',
  },
  {
    title: 'Connect WordPress',
    body: 'On the Integrations page, connect your WordPress site with an application password. Altwise imports the media library, writes alt text for the images without it, and publishes what you approve back to WordPress; every change can be undone.',
    to: routes.integrations,
    linkLabel: 'Connect a WordPress site',
  },
  {
    title: 'The command line and CI',
    body: 'npx altwise audit checks a live site or the HTML and Markdown files of a folder, and can fail a CI job when images have no alt text. npx altwise fix writes alt text into your files; npx altwise describe writes it for a folder of images.',
    to: routes.developers,
    linkLabel: 'Read the developer guide',
  },
] as const;

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
      <h2 className="mt-12 text-2xl font-bold text-slate-900">Getting started</h2>
      {topics.map((topic) => (
        <section key={topic.title} className="mt-6">
          <h3 className="text-lg font-semibold text-slate-900">{topic.title}</h3>
          <p className="mt-2 text-slate-700">{topic.body}</p>
          <p className="mt-2">
            <Link to={topic.to} className={linkClass}>
              {topic.linkLabel}
            </Link>
          </p>
        </section>
      ))}
    </div>
  );
}
