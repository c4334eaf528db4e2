import { routes } from '@altwise/contracts/routes';
import { Link } from 'react-router';
import { Card } from '../../components/ui/card.tsx';
import { useHasAudits, useHasIntegrations } from './api/get-next-steps.ts';

type Step = { title: string; description: string; to: string; done: boolean | undefined };

/**
 * What a new account does first, each step a link to its feature and marked done once the person
 * has done it (an audit, a connected site, an image in the library).
 */
export function NextSteps({ libraryCount }: { libraryCount: number }) {
  const audits = useHasAudits();
  const integrations = useHasIntegrations();
  const steps: Step[] = [
    {
      title: 'Audit your site',
      description: 'Find the images on your pages with missing or poor alt text, and fix them in one go.',
      to: routes.audit,
      done: audits.data,
    },
    {
      title: 'Connect WordPress',
      description: 'Import your media library and publish approved alt text back to your site.',
      to: routes.integrations,
      done: integrations.data,
    },
    {
      title: 'Upload images',
      description: 'Get alt text for your own images and keep it in your library.',
      to: routes.uploadImages,
      done: libraryCount > 0,
    },
  ];
  const remaining = steps.filter((step) => !step.done).length;
  return (
    <Card title="Next steps">
      <p className="text-sm text-slate-700">
        {remaining === 0
          ? 'You have done all the first steps. Run an audit again whenever your site changes.'
          : `${3 - remaining} of 3 done.`}
      </p>
      <ol className="mt-3 flex flex-col gap-3">
        {steps.map((step) => (
          <li key={step.title} className="flex items-start gap-3">
            <span
              aria-hidden="true"
              className={`mt-0.5 inline-flex size-6 shrink-0 items-center justify-center rounded-full text-sm font-bold ${
                step.done ? 'bg-green-700 text-white' : 'border-2 border-slate-500 text-slate-700'
              }`}
            >
              {step.done ? '✓' : ''}
            </span>
            <div>
              <Link
                to={step.to}
                className="font-semibold text-indigo-700 underline underline-offset-4 hover:no-underline"
              >
                {step.title}
              </Link>
              {step.done ? <span className="ml-2 text-sm font-medium text-green-800">Done</span> : null}
              <p className="text-sm text-slate-700">{step.description}</p>
            </div>
          </li>
        ))}
      </ol>
    </Card>
  );
}
