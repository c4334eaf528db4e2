/** A date and time from the API as the product shows it ("Nov 26, 2026, 7:54 PM"); the text itself when unreadable. */
export function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : date.toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });
}

/** An audit score (0 to 1, or null when there is no non-decorative image) as a percentage. */
export function formatScore(score: number | null): string {
  return score === null ? '–' : `${Math.round(score * 100)}%`;
}

/**
 * The file name an image address ends with, as people name their images ("harbour-at-dawn.jpg"):
 * the last path segment, decoded; empty for an inline (data:) image or an address without one.
 */
export function imageFileName(src: string): string {
  if (/^data:/i.test(src.trim())) return '';
  let path: string;
  try {
    path = new URL(src, 'http://placeholder.invalid').pathname;
  } catch {
    return '';
  }
  const last = path.split('/').filter(Boolean).at(-1) ?? '';
  try {
    return decodeURIComponent(last).slice(0, 120);
  } catch {
    return last.slice(0, 120);
  }
}

/** A time still to wait in words ("about 40 seconds", "about 3 minutes"), as an estimate reads. */
export function formatTimeLeft(seconds: number): string {
  if (seconds < 60) {
    const n = Math.max(5, Math.ceil(seconds / 5) * 5);
    return `about ${n} seconds`;
  }
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `about ${minutes} minute${minutes === 1 ? '' : 's'}`;
  const hours = Math.round((seconds / 3600) * 10) / 10;
  return `about ${hours} hour${hours === 1 ? '' : 's'}`;
}
