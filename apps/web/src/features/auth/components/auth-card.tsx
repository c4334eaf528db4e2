import type { ReactNode } from 'react';

/** The narrow card every account screen sits in; its title is the page's one h1. */
export function AuthCard({ title, children }: { title: ReactNode; children: ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-md px-4 py-12 sm:py-16">
      <div className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        <h1 className="mb-6 text-center text-2xl font-bold tracking-tight text-slate-900">{title}</h1>
        {children}
      </div>
    </div>
  );
}

/** A text link in the indigo of the product, for 'Already have an account? Login' and the like. */
export const textLinkClass = 'font-semibold text-indigo-700 underline underline-offset-2 hover:no-underline';
