import { FREE_CREDITS } from '@altwise/contracts/limits';
import { routes } from '@altwise/contracts/routes';
import { Link } from 'react-router';
import { ButtonLink } from '../../components/ui/button.tsx';
import { usePageTitle } from '../../lib/page-title.ts';

const features = [
  {
    title: 'Alt text for your website images',
    body: 'Paste a page address and Altwise finds its images, flags the ones without alt text and writes clear, specific descriptions for them.',
    link: null,
  },
  {
    title: 'Bulk uploads and a searchable library',
    body: 'Upload a batch of images, get alt text for each, then copy, edit or export everything from one library.',
    link: null,
  },
  {
    title: 'AI image editing and Instagram captions',
    body: 'Describe a change in plain words to edit an image, and get a caption ready to post.',
    link: { to: routes.captionGenerator, label: 'Explore the image editor' },
  },
  {
    title: 'AI reel generator',
    body: 'Turn a handful of images and a soundtrack into a short captioned reel.',
    link: { to: routes.reelGenerator, label: 'Explore the reel generator' },
  },
] as const;

/** A preview of what the product produces: an image and the alt text written for it. */
function AltTextPreview() {
  return (
    <figure className="rounded-2xl border border-slate-200 bg-white p-4 shadow-lg">
      <svg
        viewBox="0 0 320 200"
        role="img"
        aria-label="Example image"
        className="h-auto w-full rounded-lg"
        focusable="false"
      >
        <title>Example image</title>
        <rect width="320" height="200" fill="#e0e7ff" />
        <circle cx="250" cy="52" r="24" fill="#fbbf24" />
        <path d="M0 160 80 90l60 50 50-40 130 100H0z" fill="#4338ca" />
        <path d="M0 200v-30l90-55 70 55 45-30 115 60z" fill="#312e81" />
      </svg>
      <figcaption className="mt-4 text-sm">
        <span className="font-semibold text-slate-900">Generated alt text</span>
        <span className="mt-1 block text-slate-700">
          Illustration of dark blue mountain ridges under a pale sky, with a yellow sun rising on the right.
        </span>
      </figcaption>
    </figure>
  );
}

export function LandingPage() {
  usePageTitle('Altwise – AI alt text for every image', { raw: true });
  return (
    <>
      <section className="bg-gradient-to-b from-indigo-50 to-white">
        <div className="mx-auto grid max-w-6xl items-center gap-12 px-4 py-16 sm:py-24 lg:grid-cols-2">
          <div>
            <h1 className="text-4xl font-bold tracking-tight text-slate-900 sm:text-5xl">
              Accurate alt text for every image, written by AI
            </h1>
            <p className="mt-6 text-lg text-slate-700">
              Altwise describes your images so that people using screen readers get the whole story, and your
              pages meet accessibility guidelines. Scrape a web page or upload images and get alt text in
              minutes.
            </p>
            <div className="mt-8 flex flex-wrap items-center gap-4">
              <ButtonLink to={routes.register} size="lg">
                Start free trial
              </ButtonLink>
              <ButtonLink to={routes.plans} size="lg" variant="secondary">
                See pricing
              </ButtonLink>
            </div>
            <p className="mt-4 text-sm text-slate-700">
              Your first {FREE_CREDITS} credits are free. No credit card needed. One credit writes alt text
              for one image.
            </p>
          </div>
          <AltTextPreview />
        </div>
      </section>

      <section aria-labelledby="features-heading" className="mx-auto max-w-6xl px-4 py-16">
        <h2 id="features-heading" className="text-3xl font-bold tracking-tight text-slate-900">
          What Altwise does
        </h2>
        <ul className="mt-8 grid gap-6 sm:grid-cols-2">
          {features.map((feature) => (
            <li key={feature.title} className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
              <h3 className="text-lg font-semibold text-slate-900">{feature.title}</h3>
              <p className="mt-2 text-slate-700">{feature.body}</p>
              {feature.link ? (
                <Link
                  to={feature.link.to}
                  className="mt-4 inline-block font-semibold text-indigo-700 underline-offset-4 hover:underline"
                >
                  {feature.link.label}
                </Link>
              ) : null}
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="cta-heading" className="bg-indigo-900 text-white focus-light">
        <div className="mx-auto flex max-w-6xl flex-col items-start gap-6 px-4 py-16 sm:flex-row sm:items-center sm:justify-between">
          <div>
            <h2 id="cta-heading" className="text-2xl font-bold">
              Make your images accessible today
            </h2>
            <p className="mt-2 text-indigo-100">
              Start with {FREE_CREDITS} free credits. Upgrade only when you need more.
            </p>
          </div>
          <Link
            to={routes.register}
            className="inline-flex min-h-12 items-center rounded-md bg-white px-6 font-semibold text-indigo-900 hover:bg-indigo-50"
          >
            Start free trial
          </Link>
        </div>
      </section>
    </>
  );
}
