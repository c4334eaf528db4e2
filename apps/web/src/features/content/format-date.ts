const monthNames = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A date as 'MMM dd, yyyy' (the product spec §9), e.g. 'Mar 05, 2027', in the viewer's time zone; '' when unreadable. */
export function formatDate(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return `${monthNames[date.getMonth()]} ${String(date.getDate()).padStart(2, '0')}, ${date.getFullYear()}`;
}

/** A short title for a generated text: its first line without Markdown heading marks. */
export function titleOf(content: string, maxLength = 80): string {
  const first = content.split('\n').find((line) => line.trim()) ?? '';
  const title = first
    .replace(/^#+\s*/, '')
    .replace(/[*_`]/g, '')
    .trim();
  return title.length > maxLength ? `${title.slice(0, maxLength - 1).trimEnd()}…` : title;
}
