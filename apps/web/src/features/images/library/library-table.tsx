import type { LibraryImageRecord } from '@altwise/contracts/library';
import { useEffect, useRef } from 'react';
import { ImageFileName, Thumbnail } from '../../../components/ui/image-preview.tsx';
import { OriginLabel } from '../../../components/ui/origin-label.tsx';
import { NeedsWordsBadge, ReviewBadge } from '../../../components/ui/review-details.tsx';

/** A library row: the product spec's id, src and alt text, with the generator's confidence, review flag and reasons. */
export type LibraryRow = LibraryImageRecord;

const iconButton =
  'inline-flex min-h-9 items-center justify-center rounded-md px-2 text-sm font-medium text-indigo-800 ring-1 ring-inset ring-indigo-300 hover:bg-indigo-50';

function CopyIcon() {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      className="size-4"
    >
      <rect x="9" y="9" width="11" height="11" rx="2" />
      <path d="M5 15V5a2 2 0 0 1 2-2h10" />
    </svg>
  );
}

function HeaderCheckbox({
  checked,
  indeterminate,
  disabled,
  onChange,
}: {
  checked: boolean;
  indeterminate: boolean;
  disabled: boolean;
  onChange: () => void;
}) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = indeterminate;
  }, [indeterminate]);
  return (
    <input
      ref={ref}
      type="checkbox"
      aria-label="Select all images on this page"
      className="size-5 accent-indigo-700"
      checked={checked}
      disabled={disabled}
      onChange={onChange}
    />
  );
}

/**
 * The library table of the product spec §2: #, select, URL (a thumbnail of the stored preview, the file name people
 * know the image by, then the truncated URL; the full URL is the link and its title),
 * Alt Text with a copy button, and the Edit / Regenerate actions users expect. A row whose alt text needs
 * review shows a "Review" badge and an Approve action; a row the generator had no words for (ADR 068)
 * says so, with its reason, and waits for a person's words through Edit: there is nothing to approve.
 */
export function LibraryTable({
  rows,
  firstNumber,
  selected,
  onToggle,
  onTogglePage,
  onCopy,
  onEdit,
  onRegenerate,
  onApprove,
  approvingId,
}: {
  rows: readonly LibraryRow[];
  /** The # of the first row (rows are numbered across pages). */
  firstNumber: number;
  selected: ReadonlySet<string>;
  onToggle: (row: LibraryRow) => void;
  onTogglePage: (select: boolean) => void;
  onCopy: (row: LibraryRow) => void;
  onEdit: (row: LibraryRow, number: number) => void;
  onRegenerate: (row: LibraryRow, number: number) => void;
  onApprove: (row: LibraryRow, number: number) => void;
  /** The row whose approval is under way (its button is busy). */
  approvingId?: string | null;
}) {
  const selectedOnPage = rows.filter((row) => selected.has(row.id)).length;
  const allOnPage = rows.length > 0 && selectedOnPage === rows.length;
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-300">
      <table className="w-full min-w-[48rem] table-fixed border-collapse text-left text-sm">
        <caption className="sr-only">Your images and their alt text</caption>
        <thead className="bg-slate-100 text-slate-900">
          <tr>
            <th scope="col" className="w-14 px-3 py-3 font-semibold">
              #
            </th>
            <th scope="col" className="w-14 px-3 py-3">
              <HeaderCheckbox
                checked={allOnPage}
                indeterminate={selectedOnPage > 0 && !allOnPage}
                disabled={rows.length === 0}
                onChange={() => onTogglePage(!allOnPage)}
              />
            </th>
            <th scope="col" className="w-[30%] px-3 py-3 font-semibold">
              URL
            </th>
            <th scope="col" className="px-3 py-3 font-semibold">
              Alt Text
            </th>
            <th scope="col" className="w-48 px-3 py-3 font-semibold">
              Actions
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => {
            const number = firstNumber + index;
            return (
              <tr key={row.id} className="border-t border-slate-200 align-top">
                <td className="px-3 py-3 text-slate-800">{number}</td>
                <td className="px-3 py-3">
                  <input
                    type="checkbox"
                    aria-label={`Select image ${number}`}
                    className="size-5 accent-indigo-700"
                    checked={selected.has(row.id)}
                    onChange={() => onToggle(row)}
                  />
                </td>
                <td className="px-3 py-3">
                  <div className="flex items-start gap-2">
                    <Thumbnail url={row.thumbnailUrl} />
                    <div className="min-w-0 flex-1">
                      <ImageFileName src={row.src} name={row.fileName} />
                      <a
                        href={row.src}
                        title={row.src}
                        target="_blank"
                        rel="noopener noreferrer"
                        className="block truncate text-indigo-800 underline"
                      >
                        {row.src}
                        <span className="sr-only"> (opens in a new tab)</span>
                      </a>
                    </div>
                  </div>
                </td>
                <td className="px-3 py-3">
                  <div className="flex items-start gap-2">
                    <div className="min-w-0 flex-1">
                      {row.needsWords ? (
                        <p className="break-words text-slate-800">
                          <span className="font-medium">No alt text yet.</span> {row.needsWordsReason}
                        </p>
                      ) : (
                        <p className="break-words text-slate-900">{row.alt_text}</p>
                      )}
                      <p className="mt-1 flex flex-wrap items-center gap-1">
                        <OriginLabel origin={row.origin} />
                        {row.needsWords ? (
                          <NeedsWordsBadge />
                        ) : row.needsReview ? (
                          <ReviewBadge confidence={row.confidence} />
                        ) : null}
                      </p>
                    </div>
                    <button
                      type="button"
                      onClick={() => onCopy(row)}
                      aria-label={`Copy alt text for image ${number}`}
                      title="Copy alt text"
                      disabled={row.alt_text === ''}
                      className={`${iconButton} disabled:cursor-not-allowed disabled:opacity-60`}
                    >
                      <CopyIcon />
                    </button>
                  </div>
                </td>
                <td className="px-3 py-3">
                  <div className="flex flex-wrap gap-2">
                    <button
                      type="button"
                      className={iconButton}
                      aria-label={`Edit alt text for image ${number}`}
                      onClick={() => onEdit(row, number)}
                    >
                      Edit
                    </button>
                    <button
                      type="button"
                      className={iconButton}
                      aria-label={`Regenerate alt text for image ${number} (1 credit)`}
                      onClick={() => onRegenerate(row, number)}
                    >
                      Regenerate
                    </button>
                    {row.needsReview && !row.needsWords ? (
                      <button
                        type="button"
                        className={`${iconButton} disabled:cursor-not-allowed disabled:opacity-60`}
                        aria-label={`Approve alt text for image ${number}`}
                        disabled={approvingId === row.id}
                        onClick={() => onApprove(row, number)}
                      >
                        {approvingId === row.id ? 'Approving...' : 'Approve'}
                      </button>
                    ) : null}
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
