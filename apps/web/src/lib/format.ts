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
