import { FREE_CREDITS } from '@altwise/contracts/limits';
import { routes } from '@altwise/contracts/routes';
import { Link } from 'react-router';
import { ButtonLink } from '../../components/ui/button-link.tsx';
import { defaultPageMeta, usePageMeta } from '../../lib/page-meta.tsx';
import espressoAfterAvif from './images/espresso-after.avif';
import espressoAfterWebp from './images/espresso-after.webp';
import espressoBeforeAvif from './images/espresso-before.avif';
import espressoBeforeWebp from './images/espresso-before.webp';

/** the product spec §2 Landing page: three feature cards, two to the image editor and one to the reel generator. */
const features = [
  {
    title: 'AI Image Editing',
    body: 'Describe a change in plain words, such as a brighter background or a removed object, and get an edited image back.',
    to: routes.captionGenerator,
    linkLabel: 'Edit an image with AI',
  },
  {
    title: 'Instagram Captions',
    body: 'Get a caption ready to post for each image, written to match what the picture actually shows.',
    to: routes.captionGenerator,
    linkLabel: 'Write Instagram captions',
  },
  {
    title: 'AI Reel Generator',
    body: 'Turn a handful of images and a soundtrack into a short captioned reel, or generate the images from a text prompt.',
    to: routes.reelGenerator,
    linkLabel: 'Create a reel',
  },
] as const;

/** The site-wide tools: audits, WordPress, and the command line for builds and CI. */
const siteTools = [
  {
    title: 'Site audits',
    body: 'Give us your site address and we check every image on up to hundreds of pages: missing, empty or unhelpful alt text, scored and ready to fix in one go.',
  },
  {
    title: 'WordPress',
    body: 'Connect your WordPress site, import its media library, review the suggested alt text and publish it back, with an undo for every change.',
  },
  {
    title: 'Command line and CI',
    body: 'Run the same audit on your static site with npx altwise audit, fail a pull request on missing alt text in CI, and fix files locally with npx altwise fix.',
  },
] as const;

const steps = [
  {
    title: 'Upload image',
    body: 'Upload images from your computer, or give us a web page address and we find its images for you.',
  },
  {
    title: 'Enter prompt',
    body: 'Optionally tell the AI what matters: your brand, the product name, the tone, or what to leave out.',
  },
  {
    title: 'Get results',
    body: 'Alt text for each image lands in your library, ready to copy, edit or export to a spreadsheet.',
  },
] as const;

const afterAlt =
  'An espresso in a red cup with a white rim, on a matching red saucer with a silver spoon, on a worn wooden table.';

function StartFreeTrial({ onDark = false }: { onDark?: boolean }) {
  return onDark ? (
    <Link
      to={routes.register}
      className="inline-flex min-h-12 items-center rounded-md bg-white px-6 font-semibold text-indigo-900 hover:bg-indigo-50"
    >
      Start free trial
    </Link>
  ) : (
    <ButtonLink to={routes.register} size="lg">
      Start free trial
    </ButtonLink>
  );
}

/** A preview of what the product produces: an image and the alt text written for it. */
function AltTextPreview() {
  return (
    <figure className="rounded-2xl border border-slate-200 bg-white p-4 shadow-lg">
      <svg
        viewBox="0 0 320 200"
        role="img"
        aria-labelledby="hero-preview-title"
        className="h-auto w-full rounded-lg"
      >
        <title id="hero-preview-title">Illustration of mountain ridges under a rising sun</title>
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

function ExamplePicture({ avif, webp, alt }: { avif: string; webp: string; alt: string }) {
  return (
    <picture>
      <source srcSet={avif} type="image/avif" />
      <img
        src={webp}
        alt={alt}
        width={600}
        height={400}
        loading="lazy"
        decoding="async"
        className="h-auto w-full rounded-lg bg-slate-200"
      />
    </picture>
  );
}

function BeforeAfter() {
  return (
    <section aria-labelledby="example-heading" className="bg-slate-50">
      <div className="mx-auto max-w-6xl px-4 py-16">
        <h2 id="example-heading" className="text-3xl font-bold tracking-tight text-slate-900">
          Before and after Altwise
        </h2>
        <p className="mt-4 max-w-2xl text-lg text-slate-700">
          The same photo, as a screen reader user meets it without alt text and with the alt text Altwise
          writes.
        </p>
        <div className="mt-10 grid gap-8 md:grid-cols-2">
          <figure className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
            <ExamplePicture
              avif={espressoBeforeAvif}
              webp={espressoBeforeWebp}
              alt="The espresso photo blurred and greyed out, standing for what a screen reader user gets from an image without alt text."
            />
            <figcaption className="mt-4 space-y-2 text-sm text-slate-800">
              <span className="block font-semibold text-red-800">Before: no alt text</span>
              <code className="block rounded bg-slate-100 px-2 py-1 font-mono text-slate-900">
                {'<img src="IMG_4821.jpg">'}
              </code>
              <span className="block">
                A screen reader announces: <q>IMG underscore 4821 dot jpg, image</q>.
              </span>
            </figcaption>
          </figure>
          <figure className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
            <ExamplePicture avif={espressoAfterAvif} webp={espressoAfterWebp} alt={afterAlt} />
            <figcaption className="mt-4 space-y-2 text-sm text-slate-800">
              <span className="block font-semibold text-green-800">After: alt text by Altwise</span>
              <code className="block rounded bg-slate-100 px-2 py-1 font-mono break-words text-slate-900">
                {`<img src="IMG_4821.jpg" alt="${afterAlt}">`}
              </code>
              <span className="block">A screen reader reads the description aloud.</span>
            </figcaption>
          </figure>
        </div>
      </div>
    </section>
  );
}

export function LandingPage() {
  usePageMeta({ ...defaultPageMeta, raw: true });
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
              <StartFreeTrial />
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
          More than alt text
        </h2>
        <p className="mt-4 max-w-2xl text-lg text-slate-700">
          The same credits power creative tools for your images and your social media.
        </p>
        <ul className="mt-8 grid gap-6 md:grid-cols-3">
          {features.map((feature) => (
            <li
              key={feature.title}
              className="flex flex-col rounded-xl border border-slate-200 bg-white p-6 shadow-sm"
            >
              <h3 className="text-lg font-semibold text-slate-900">{feature.title}</h3>
              <p className="mt-2 flex-1 text-slate-700">{feature.body}</p>
              <Link
                to={feature.to}
                className="mt-4 inline-block font-semibold text-indigo-700 underline underline-offset-4 hover:no-underline"
              >
                {feature.linkLabel}
              </Link>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="site-heading" className="mx-auto max-w-6xl px-4 pb-16">
        <h2 id="site-heading" className="text-3xl font-bold tracking-tight text-slate-900">
          Your whole site, not one image at a time
        </h2>
        <ul className="mt-8 grid gap-6 md:grid-cols-3">
          {siteTools.map((tool) => (
            <li key={tool.title} className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
              <h3 className="text-lg font-semibold text-slate-900">{tool.title}</h3>
              <p className="mt-2 text-slate-700">{tool.body}</p>
            </li>
          ))}
        </ul>
        <p className="mt-6">
          <Link
            to={routes.developers}
            className="font-semibold text-indigo-700 underline underline-offset-4 hover:no-underline"
          >
            Read the developer guide for the CLI and CI
          </Link>
        </p>
      </section>

      <BeforeAfter />

      <section aria-labelledby="how-heading" className="mx-auto max-w-6xl px-4 py-16">
        <h2 id="how-heading" className="text-3xl font-bold tracking-tight text-slate-900">
          How it works
        </h2>
        <ol className="mt-8 grid gap-6 md:grid-cols-3">
          {steps.map((step, index) => (
            <li key={step.title} className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
              <span
                aria-hidden="true"
                className="flex size-10 items-center justify-center rounded-full bg-indigo-700 text-lg font-bold text-white"
              >
                {index + 1}
              </span>
              <h3 className="mt-4 text-lg font-semibold text-slate-900">
                <span className="sr-only">Step {index + 1}: </span>
                {step.title}
              </h3>
              <p className="mt-2 text-slate-700">{step.body}</p>
            </li>
          ))}
        </ol>
      </section>

      <section aria-labelledby="cta-heading" className="focus-light bg-indigo-900 text-white">
        <div className="mx-auto flex max-w-6xl flex-col items-start gap-6 px-4 py-16 sm:flex-row sm:items-center sm:justify-between">
          <div>
            <h2 id="cta-heading" className="text-2xl font-bold">
              Make your images accessible today
            </h2>
            <p className="mt-2 text-indigo-100">
              Start with {FREE_CREDITS} free credits. Upgrade only when you need more.
            </p>
          </div>
          <StartFreeTrial onDark />
        </div>
      </section>
    </>
  );
}
