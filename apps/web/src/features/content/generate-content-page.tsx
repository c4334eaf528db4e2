import {
  buildContentPrompt,
  CONTENT_TOPIC_MAX_CHARS,
  contentCategories,
  contentTones,
  generateContentFormSchema,
} from '@altwise/contracts/content';
import { messages } from '@altwise/contracts/messages';
import { routes } from '@altwise/contracts/routes';
import { useRef } from 'react';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { MessageBanner } from '../../components/ui/message-banner.tsx';
import { errorMessage } from '../../lib/api-error.ts';
import { copyText } from '../../lib/copy-text.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import { useForm } from '../../lib/use-form.ts';
import { useGenerateContent } from './api/generate-content.ts';
import { SelectField, TextAreaField } from './components/form-controls.tsx';

const m = messages.generator;
const capitalise = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
const toneOptions = contentTones.map((value) => ({ value, label: capitalise(value) }));
const categoryOptions = contentCategories.map((value) => ({ value, label: capitalise(value) }));
const emptyForm = { prompt: '', tone: '', category: '' };

/** The blog-post generator of the product spec §2/§5: prompt, tone and category; pending, success and error banners. */
export function GenerateContentPage() {
  usePageTitle('Blog post generator');
  const form = useForm(generateContentFormSchema, emptyForm);
  const generate = useGenerateContent();
  const resultHeading = useRef<HTMLHeadingElement>(null);

  const onSubmit = form.handleSubmit((values) => {
    generate.mutate(buildContentPrompt(values), {
      // The post appears below the form: take keyboard and screen-reader users to it.
      onSuccess: () => requestAnimationFrame(() => resultHeading.current?.focus()),
    });
  });

  const copy = (text: string) =>
    copyText(text, 'Blog post copied!', {
      success: { position: 'top-right' },
      failure: { position: 'top-right' },
    });

  const blurOf = (name: keyof typeof emptyForm) => form.field(name).onBlur;

  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:py-14">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">Blog Post Generator</h1>
      <p className="mt-3 text-lg text-slate-700">
        Give a topic, pick a tone and a category, and get a blog post to edit. Everything you generate is kept
        in your{' '}
        <Link to={routes.history} className="font-medium text-indigo-700 underline hover:text-indigo-900">
          content history
        </Link>
        .
      </p>

      <Card className="mt-8">
        <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5">
          <TextAreaField
            label="Prompt"
            name="prompt"
            required
            rows={4}
            maxLength={CONTENT_TOPIC_MAX_CHARS}
            hint="What the post is about, e.g. “Why every product photo needs alt text”."
            value={form.values.prompt}
            onChange={(event) => form.setValue('prompt', event.target.value)}
            onBlur={blurOf('prompt')}
            error={form.field('prompt').error}
          />
          <div className="grid gap-5 sm:grid-cols-2">
            <SelectField
              label="Tone"
              name="tone"
              required
              placeholder="Select a tone"
              options={toneOptions}
              value={form.values.tone}
              onChange={(event) => form.setValue('tone', event.target.value)}
              onBlur={blurOf('tone')}
              error={form.field('tone').error}
            />
            <SelectField
              label="Category"
              name="category"
              required
              placeholder="Select a category"
              options={categoryOptions}
              value={form.values.category}
              onChange={(event) => form.setValue('category', event.target.value)}
              onBlur={blurOf('category')}
              error={form.field('category').error}
            />
          </div>
          <div aria-live="polite">
            {generate.isPending ? (
              <MessageBanner type="loading">Writing your blog post...</MessageBanner>
            ) : generate.isSuccess ? (
              <MessageBanner type="success">{m.success}</MessageBanner>
            ) : null}
          </div>
          {generate.isError ? (
            <MessageBanner type="error">
              {errorMessage(generate.error, messages.common.unknownError)}
            </MessageBanner>
          ) : null}
          <div>
            <Button type="submit" isLoading={generate.isPending} loadingText="Generating...">
              Generate
            </Button>
          </div>
        </form>
      </Card>

      {generate.data ? (
        <section aria-labelledby="generated-post" className="mt-10">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <h2
              id="generated-post"
              ref={resultHeading}
              tabIndex={-1}
              className="text-2xl font-semibold text-slate-900"
            >
              Your blog post
            </h2>
            <Button variant="secondary" size="sm" onClick={() => copy(generate.data.text)}>
              Copy text
            </Button>
          </div>
          <div
            data-testid="generated-text"
            className="mt-4 whitespace-pre-wrap rounded-lg border border-slate-300 bg-white p-5 text-slate-900"
          >
            {generate.data.text}
          </div>
        </section>
      ) : null}
    </div>
  );
}
