import type { Announcement } from '@altwise/contracts/audit';

const flagLabels: Record<Announcement['flags'][number]['kind'], string> = {
  redundant: 'Redundant',
  verbose: 'Verbose',
};

const flagClasses: Record<Announcement['flags'][number]['kind'], string> = {
  redundant: 'bg-amber-100 text-amber-900',
  verbose: 'bg-sky-100 text-sky-900',
};

/**
 * What a screen reader announces for a page's headings, links, buttons and images, in reading
 * order (point 4), with the redundant and verbose ones marked and said why.
 */
export function AnnouncementList({ items, label }: { items: readonly Announcement[]; label: string }) {
  if (items.length === 0) return <p className="text-sm text-slate-700">Nothing is announced on this page.</p>;
  return (
    <ol aria-label={label} className="flex flex-col gap-1 text-sm">
      {items.map((item, index) => (
        // The list never reorders: an announcement is its place in the page.
        // biome-ignore lint/suspicious/noArrayIndexKey: announcements have no id.
        <li key={index} className={item.role === 'text' ? 'pl-4 text-slate-700 italic print:text-black' : ''}>
          <span className={item.role === 'text' ? '' : 'font-medium'}>{item.spoken}</span>
          {item.flags.map((flag) => (
            <span key={flag.kind + flag.message} className="mt-0.5 block">
              <span
                className={`mr-1 inline-block rounded px-1.5 text-xs font-semibold ${flagClasses[flag.kind]}`}
              >
                {flagLabels[flag.kind]}
              </span>
              <span className="text-slate-800 print:text-black">{flag.message}</span>
            </span>
          ))}
        </li>
      ))}
    </ol>
  );
}
