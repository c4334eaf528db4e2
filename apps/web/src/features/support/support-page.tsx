import {
  CREDITS_PER_IMAGE,
  FREE_CREDITS,
  MAX_SCRAPE_IMAGES,
  MAX_UPLOAD_BYTES,
} from '@altwise/contracts/limits';
import { creditPack } from '@altwise/contracts/plans';
import { routes } from '@altwise/contracts/routes';
import { Link } from 'react-router';
import { usePageMeta } from '../../lib/page-meta.tsx';
import { ContactForm } from './contact-form.tsx';

const uploadLimitMb = MAX_UPLOAD_BYTES / (1024 * 1024);

const faqs = [
  {
    question: 'Can I edit the alt text Altwise writes?',
    answer:
      'Yes. Every result is saved in your image library, where you can copy it, change it or export it to a spreadsheet. We recommend reviewing names, numbers and context before you publish.',
  },
  {
    question: 'Which images can I upload?',
    answer: `Image files of up to ${uploadLimitMb} MB each. Larger files are left out and you are told which ones; an image in a format the AI cannot read is skipped and its credit refunded.`,
  },
  {
    question: 'How many images can a page scan find?',
    answer: `Up to ${MAX_SCRAPE_IMAGES} images per page. Only the page's image elements are read; its scripts are never run.`,
  },
  {
    question: 'What happens to my credits if generation fails?',
    answer:
      'Credits are taken when work starts and given back automatically if an image cannot be processed, for example when it cannot be downloaded or its format is not supported.',
  },
  {
    question: 'How do I cancel my plan?',
    answer:
      'Open your dashboard and choose Cancel Renewal. Your plan is then not renewed at the end of the current period.',
  },
] as const;

export function SupportPage() {
  usePageMeta({
    title: 'Support',
    description:
      'Get help with Altwise: how credits work, answers to common questions about alt text generation, and a contact form to reach our team.',
  });
  return (
    <div className="mx-auto max-w-6xl px-4 py-12 sm:py-16">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">Support</h1>
      <p className="mt-4 max-w-2xl text-lg text-slate-700">
        Answers to common questions, and a direct line to the people who build Altwise.
      </p>

      <div className="mt-12 grid gap-12 lg:grid-cols-2">
        <div className="space-y-12">
          <section aria-labelledby="credits-heading">
            <h2 id="credits-heading" className="text-2xl font-bold text-slate-900">
              How credits work
            </h2>
            <ul className="mt-4 list-disc space-y-2 pl-6 text-slate-800 marker:text-indigo-700">
              <li>
                {CREDITS_PER_IMAGE} credit writes alt text for {CREDITS_PER_IMAGE} image, whether you upload
                it or it comes from a page scan.
              </li>
              <li>Every new account starts with {FREE_CREDITS} free credits. No credit card needed.</li>
              <li>
                Plans add credits every month or year; a credit pack adds {creditPack.credits} credits for $
                {creditPack.price}, as often as you like. See{' '}
                <Link
                  to={routes.plans}
                  className="font-semibold text-indigo-700 underline underline-offset-4"
                >
                  pricing
                </Link>
                .
              </li>
              <li>Image editing and reel images cost more credits, depending on the quality you choose.</li>
              <li>If something fails, the credits for it are refunded automatically.</li>
            </ul>
          </section>

          <section aria-labelledby="faq-heading">
            <h2 id="faq-heading" className="text-2xl font-bold text-slate-900">
              Frequently asked questions
            </h2>
            <div className="mt-4 divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white">
              {faqs.map((faq) => (
                <details key={faq.question} className="group px-5 py-4">
                  <summary className="cursor-pointer font-semibold text-slate-900 marker:text-indigo-700">
                    {faq.question}
                  </summary>
                  <p className="mt-3 text-slate-700">{faq.answer}</p>
                </details>
              ))}
            </div>
          </section>
        </div>

        <section
          aria-labelledby="contact-heading"
          className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8"
        >
          <h2 id="contact-heading" className="text-2xl font-bold text-slate-900">
            Contact us
          </h2>
          <p className="mt-2 mb-6 text-slate-700">
            Questions about alt text, credits, plans or your account? Write to us and we will reply by email.
          </p>
          <ContactForm />
        </section>
      </div>
    </div>
  );
}
