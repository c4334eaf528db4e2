import { messages } from '@altwise/contracts/messages';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ArrowLeftIcon } from './icons.tsx';

export type ComingSoonProps = {
  /** The page's real title, e.g. 'Create an Account'; rendered as the page's h1. */
  title: string;
  /** One honest sentence on what this page will do. */
  description: ReactNode;
  /** Real actions that already work (e.g. Help's Contact Support link). */
  children?: ReactNode;
  backTo?: string;
  backLabel?: string;
};

/** A page whose feature is not built yet: says so plainly, never shows a fake form or fake data. */
export function ComingSoon({
  title,
  description,
  children,
  backTo = '/',
  backLabel = 'Back to home',
}: ComingSoonProps) {
  return (
    <div className="mx-auto max-w-2xl px-4 py-16 sm:py-24">
      <p className="mb-4 inline-flex rounded-full bg-amber-100 px-3 py-1 text-sm font-semibold text-amber-900">
        {messages.common.comingSoon}
      </p>
      <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">{title}</h1>
      <p className="mt-4 text-lg text-slate-700">{description}</p>
      {children ? <div className="mt-8 flex flex-wrap gap-3">{children}</div> : null}
      <p className="mt-10">
        <Link
          to={backTo}
          className="inline-flex items-center gap-2 font-semibold text-indigo-700 underline-offset-4 hover:underline"
        >
          <ArrowLeftIcon className="size-4" />
          {backLabel}
        </Link>
      </p>
    </div>
  );
}
