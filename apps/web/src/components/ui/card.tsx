import type { ReactNode } from 'react';

export type CardProps = {
  /** Rendered as an h2; pass `headingLevel` when the card sits deeper in the outline. */
  title?: ReactNode;
  headingLevel?: 2 | 3;
  children: ReactNode;
  className?: string;
};

export function Card({ title, headingLevel = 2, children, className = '' }: CardProps) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <section className={`rounded-xl border border-slate-200 bg-white p-6 shadow-sm ${className}`}>
      {title ? <Heading className="mb-3 text-lg font-semibold text-slate-900">{title}</Heading> : null}
      {children}
    </section>
  );
}
