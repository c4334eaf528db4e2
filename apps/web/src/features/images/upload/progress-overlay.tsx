import { createPortal } from 'react-dom';
import { useInertApp } from '../../../components/ui/spinner-overlay.tsx';

export type ProgressOverlayProps = {
  title: string;
  /** 0 to 100. */
  percent: number;
  /** e.g. '2 of 3 images processed'. */
  count: string;
  /** What is happening now, e.g. 'Uploading...'. */
  stage: string;
};

/**
 * The upload's full-screen progress overlay (the product spec §2 'Processing Your Images', a percentage and a
 * count). Like SpinnerOverlay it makes the app behind it inert. The bar is a progressbar with its value;
 * the stage and count are a polite live region, so a screen reader hears steps, not every percent.
 */
export function ProgressOverlay({ title, percent, count, stage }: ProgressOverlayProps) {
  useInertApp();

  const value = Math.max(0, Math.min(100, Math.round(percent)));
  return createPortal(
    <div className="fixed inset-0 z-50 flex items-center justify-center bg-slate-900/70 p-4">
      <div
        role="dialog"
        aria-modal="true"
        aria-labelledby="upload-progress-title"
        className="flex w-full max-w-sm flex-col gap-4 rounded-xl bg-white px-8 py-6 text-center shadow-xl"
      >
        <h2 id="upload-progress-title" className="text-lg font-semibold text-slate-900">
          {title}
        </h2>
        <div
          role="progressbar"
          aria-label="Upload and processing progress"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={value}
          aria-valuetext={`${value}%, ${count}`}
          className="h-3 w-full overflow-hidden rounded-full bg-slate-200"
        >
          <div
            className="h-full rounded-full bg-indigo-700 transition-[width]"
            style={{ width: `${value}%` }}
          />
        </div>
        <p className="text-2xl font-bold text-slate-900">{value}%</p>
        <div aria-live="polite" className="text-sm text-slate-700">
          <p>{stage}</p>
          <p>{count}</p>
        </div>
      </div>
    </div>,
    document.body,
  );
}
