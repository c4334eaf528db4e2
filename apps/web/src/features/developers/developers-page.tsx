import {
  authHeaderSample,
  curlSamples,
  environmentSample,
  webhookVerifySample,
} from '@altwise/contracts/developer-samples';
import { routes } from '@altwise/contracts/routes';
import { webhookEventTypes } from '@altwise/contracts/webhooks';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { copyText } from '../../lib/copy-text.ts';
import { usePageMeta } from '../../lib/page-meta.tsx';

/** Where the API serves its OpenAPI document (apps/api/src/plugins/docs.ts). */
const docsUrl = '/api/docs';
const docsJsonUrl = '/api/docs/json';

const linkClass = 'font-medium text-indigo-800 underline underline-offset-4 hover:text-indigo-900';

/**
 * A code sample: a captioned <pre><code> that scrolls sideways by keyboard too (it takes focus), and a
 * button that copies it, named after the sample so that a list of the page's buttons tells them apart.
 */
function CodeSample({ label, code }: { label: string; code: string }) {
  return (
    <figure className="mt-4">
      <figcaption className="flex items-center justify-between gap-4 text-sm text-slate-800">
        <span className="font-semibold">{label}</span>
        <Button
          variant="secondary"
          size="sm"
          aria-label={`Copy: ${label}`}
          onClick={() => void copyText(code, 'Copied to clipboard')}
        >
          Copy
        </Button>
      </figcaption>
      <pre
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a sideways-scrolling sample must be reachable by keyboard (axe scrollable-region-focusable).
        tabIndex={0}
        className="mt-2 overflow-x-auto rounded-md bg-slate-900 p-4 text-sm leading-relaxed text-slate-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2"
      >
        <code>{code}</code>
      </pre>
    </figure>
  );
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="mt-12">
      <h2 id={id} className="text-2xl font-bold text-slate-900">
        {title}
      </h2>
      {children}
    </section>
  );
}

export function DevelopersPage() {
  usePageMeta({
    title: 'Developers',
    description:
      'Use the Altwise API from your CMS or scripts: API keys, curl examples to create a batch, follow its progress and read the alt text, and signed webhooks.',
  });
  return (
    <div className="mx-auto max-w-4xl px-4 py-12 sm:py-16">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">Developers</h1>
      <p className="mt-4 max-w-2xl text-lg text-slate-700">
        Everything you do in Altwise can be done from your CMS, your build or a script: send images, follow
        the work and read the alt text, with an API key and plain HTTPS.
      </p>
      <p className="mt-4 text-slate-800">
        The full reference is the OpenAPI document:{' '}
        <a className={linkClass} href={docsUrl}>
          browse the API reference
        </a>{' '}
        or download{' '}
        <a className={linkClass} href={docsJsonUrl}>
          the OpenAPI JSON
        </a>
        .
      </p>

      <Section id="api-key-heading" title="1. Create an API key">
        <p className="mt-4 text-slate-800">
          Sign in, open{' '}
          <Link className={linkClass} to={routes.account}>
            your account
          </Link>{' '}
          and create a key under “API keys”. The key starts with <code>ak_</code> and is shown once: keep it
          in your secret store. Send it with every call:
        </p>
        <CodeSample label="Authorization header" code={authHeaderSample} />
        <p className="mt-4 text-slate-800">
          A key can do what you can do signed in, except manage keys and webhooks, your password, email,
          payments or account. Each key may make 120 requests a minute; beyond that the answer is 429 with a
          Retry-After header. The examples below read the host and key from two shell variables:
        </p>
        <CodeSample label="Shell variables" code={environmentSample} />
      </Section>

      <Section id="batch-heading" title="2. Create a batch, follow it, read the results">
        {curlSamples.map((sample) => (
          <div key={sample.id} className="mt-8">
            <h3 className="text-lg font-semibold text-slate-900">{sample.title}</h3>
            <p className="mt-2 text-slate-800">{sample.description}</p>
            <CodeSample label={sample.title} code={sample.command} />
          </div>
        ))}
      </Section>

      <Section id="webhooks-heading" title="3. Get a webhook when a batch is done">
        <p className="mt-4 text-slate-800">
          Instead of polling, add a webhook under “Webhooks” in{' '}
          <Link className={linkClass} to={routes.account}>
            your account
          </Link>
          . Altwise then POSTs a JSON event (
          {webhookEventTypes.map((event, index) => (
            <span key={event}>
              {index > 0 ? ', ' : ''}
              <code>{event}</code>
            </span>
          ))}
          ) to your URL, retrying for up to 24 hours until it answers 2xx within 10 seconds. Each delivery is
          signed with the{' '}
          <a className={linkClass} href="https://www.standardwebhooks.com/">
            Standard Webhooks
          </a>{' '}
          scheme: headers <code>webhook-id</code>, <code>webhook-timestamp</code> and{' '}
          <code>webhook-signature</code>. Check the signature over the raw body before you trust it:
        </p>
        <CodeSample label="Verify a webhook signature (Node)" code={webhookVerifySample} />
        <p className="mt-4 text-slate-800">
          The same <code>webhook-id</code> comes again on a retry: use it to ignore a delivery you already
          handled.
        </p>
      </Section>
    </div>
  );
}
