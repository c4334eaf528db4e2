import type { ReactNode } from 'react';

/** Typography of the articles (the project has no prose plugin; these few elements are all they use). */
export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="mt-10 first:mt-0">
      <h2 className="text-2xl font-bold tracking-tight text-slate-900">{title}</h2>
      <div className="mt-4 space-y-4 text-lg leading-relaxed text-slate-800">{children}</div>
    </section>
  );
}

export function List({ children }: { children: ReactNode }) {
  return <ul className="list-disc space-y-2 pl-6 marker:text-indigo-700">{children}</ul>;
}

export function Code({ children }: { children: ReactNode }) {
  return (
    <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-base text-slate-900">{children}</code>
  );
}

/** A 'weak / better' pair of alt texts for the same image. */
export function AltExample({ image, weak, better }: { image: string; weak: string; better: string }) {
  return (
    <div className="rounded-xl border border-slate-200 bg-slate-50 p-5 text-base">
      <p className="font-semibold text-slate-900">{image}</p>
      <dl className="mt-3 grid gap-2 sm:grid-cols-[auto_1fr] sm:gap-x-4">
        <dt className="font-semibold text-red-800">Weak</dt>
        <dd className="text-slate-800">{weak}</dd>
        <dt className="font-semibold text-green-800">Better</dt>
        <dd className="text-slate-800">{better}</dd>
      </dl>
    </div>
  );
}
