import { NOT_AVAILABLE } from '@altwise/contracts/limits';

/** How the dashboard shows billing data (the product spec §4, §9); pure, so it is tested on its own. */

const monthNames = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * A date as 'MMM dd, yyyy' (DATE_FORMAT), e.g. 'Mar 05, 2027', in the viewer's time zone; 'NA' when there
 * is none or it cannot be read.
 */
export function formatDate(value: string | null | undefined): string {
  if (!value) return NOT_AVAILABLE;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return NOT_AVAILABLE;
  const day = String(date.getDate()).padStart(2, '0');
  return `${monthNames[date.getMonth()]} ${day}, ${date.getFullYear()}`;
}

/** A transaction title without its parenthesised parts: 'Growth (monthly)' → 'Growth'. */
export function transactionTitle(title: string): string {
  return title
    .replace(/\([^()]*\)/g, '')
    .replace(/\s{2,}/g, ' ')
    .trim();
}
