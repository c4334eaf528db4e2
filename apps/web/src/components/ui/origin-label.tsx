import { type AltOrigin, altOriginLabels } from '@altwise/contracts/provenance';

/**
 * Where an alt text came from (ADR 057), as a small text label: "AI", "AI, reviewed", "AI, edited",
 * "Written by a person" or "From the file’s metadata". Screen readers hear it as "Origin: …".
 */
export function OriginLabel({ origin, className = '' }: { origin: AltOrigin; className?: string }) {
  return (
    <span
      className={`inline-flex items-center rounded bg-slate-100 px-1.5 py-0.5 text-xs font-medium text-slate-800 ${className}`}
      data-origin={origin}
    >
      <span className="sr-only">Origin: </span>
      {altOriginLabels[origin]}
    </span>
  );
}
