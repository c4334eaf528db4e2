/**
 * The facts a text read in an image states that an alt must not get wrong (ADR 060,
 * `text-mismatch`): phone numbers, prices and dates, each with what a paraphrase must keep: the
 * digits of a number, the day, month and year of a date. Pure; bounded patterns only (the OCR text
 * is at most a few hundred characters, and every repeat below has an upper bound).
 */

export type StatedFact = {
  kind: 'phone number' | 'price' | 'date';
  /** As read, for the message. */
  text: string;
};

const months = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'] as const;
const monthName =
  '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';
const monthWord = new RegExp(`\\b${monthName}\\b`, 'gi');
const numericDate = /\b(\d{1,4})([./-])(\d{1,2})\2(\d{2,4})\b/g;
const dayMonth = new RegExp(
  `\\b(\\d{1,2})(?:st|nd|rd|th)?\\.?\\s{1,3}${monthName}\\.?(?:,?\\s{1,3}(\\d{4}))?\\b`,
  'gi',
);
const monthDay = new RegExp(
  `\\b${monthName}\\.?\\s{1,3}(\\d{1,2})(?:st|nd|rd|th)?(?:,?\\s{1,3}(\\d{4}))?\\b`,
  'gi',
);
const currency = '(?:[$€£¥]|usd|eur|gbp|chf)';
const amount = '\\d{1,3}(?:[ ,.]\\d{3}){0,4}(?:[.,]\\d{1,2})?|\\d{1,9}(?:[.,]\\d{1,2})?';
const price = new RegExp(
  `${currency}\\s{0,2}(?:${amount})|(?:${amount})\\s{0,2}(?:${currency}|euros?|dollars?|pounds?)(?![\\p{L}])`,
  'giu',
);
const phone = /(?:\+|\b)\d[\d \t().-]{5,18}\d\b/g;
const phoneWord = /(?:tel|phone|call|ph|fon|mobile|☎|📞)[\s.:]{0,3}$/i;

/** The phone numbers, prices and dates a text states, in that order of precedence (a date is not a phone). */
export function statedFacts(text: string): StatedFact[] {
  const found: StatedFact[] = [];
  let rest = text.slice(0, 2000);
  const take = (
    pattern: RegExp,
    kind: StatedFact['kind'],
    valid: (groups: string[], before: string) => boolean,
  ) => {
    rest = rest.replace(pattern, (whole: string, ...args: unknown[]) => {
      const offset = args.at(-2) as number;
      const groups = args.slice(0, -2).map((group) => (typeof group === 'string' ? group : ''));
      if (!valid([whole, ...groups], rest.slice(Math.max(0, offset - 12), offset))) return whole;
      found.push({ kind, text: whole.trim() });
      return ' ';
    });
  };
  take(numericDate, 'date', isNumericDate);
  take(dayMonth, 'date', () => true);
  take(monthDay, 'date', () => true);
  take(price, 'price', () => true);
  take(phone, 'phone number', ([whole], before) => isPhone(whole ?? '', before));
  return found;
}

function isNumericDate(match: string[]): boolean {
  const [a, b, c] = [match[1], match[3], match[4]].map((part) => Number(part));
  if (a === undefined || b === undefined || c === undefined) return false;
  if ((match[1] ?? '').length === 4) return b >= 1 && b <= 12 && c >= 1 && c <= 31;
  if ((match[1] ?? '').length === 3) return false;
  const yearOk = (match[4] ?? '').length === 2 || (c >= 1900 && c <= 2100);
  return yearOk && a >= 1 && a <= 31 && b >= 1 && b <= 31 && (a <= 12 || b <= 12);
}

function isPhone(candidate: string, before: string): boolean {
  const digits = candidate.replace(/\D/g, '');
  if (digits.length < 7 || digits.length > 15) return false;
  const groups = candidate.split(/[\s().-]+/).filter(Boolean);
  // "2021 2022 2023" is an axis of years, not a phone number.
  if (groups.every((group) => /^(?:19|20)\d\d$/.test(group))) return false;
  return candidate.startsWith('+') || /[().-]/.test(candidate) || phoneWord.test(before);
}

/** True when `alt` states the fact, in any wording that keeps its digits (and a date's day, month and year). */
export function altStates(fact: StatedFact, alt: string): boolean {
  const altNumbers = numbersIn(alt);
  if (fact.kind === 'price') {
    const [value] = numbersIn(fact.text);
    return value !== undefined && altNumbers.includes(value);
  }
  if (fact.kind === 'phone number') {
    const digits = fact.text.replace(/\D/g, '');
    return alt.replace(/\D/g, '').includes(digits.slice(-7));
  }
  // A date: every part said, the month as a number or by name, a two-digit year as its four digits.
  const altParts = integersIn(alt);
  const altMonths = monthsIn(alt);
  const has = (part: string) => altParts.includes(part) || altMonths.includes(Number(part));
  const hasYear = (year: string) =>
    altParts.some((part) => part === year || (year.length === 2 && part.length === 4 && part.endsWith(year)));
  const named = monthsIn(fact.text)[0];
  const parts = integersIn(fact.text);
  if (named !== undefined) {
    const [day, year] = parts;
    return (
      altMonths.includes(named) && (day === undefined || altParts.includes(day)) && (!year || hasYear(year))
    );
  }
  const [first, second, third] = parts;
  if (first === undefined || second === undefined || third === undefined) return false;
  return first.length === 4
    ? hasYear(first) && has(second) && has(third)
    : has(first) && has(second) && hasYear(third);
}

/** The whole numbers of a text, leading zeros dropped ("03.12.2026" → 3, 12, 2026). */
function integersIn(text: string): string[] {
  return (text.match(/\d{1,12}/g) ?? []).map((part) => part.replace(/^0+(?=\d)/, ''));
}

/**
 * The numbers of a text as values: separators and leading zeros dropped, zero cents dropped
 * ("$1,299.00" and "1299 dollars" are both "1299"; "€19,99" and "19.99 euros" are both "1999").
 */
function numbersIn(text: string): string[] {
  return [...text.matchAll(/\d(?:[\d,.]{0,20}\d)?/g)].map((match) => {
    const written = match[0];
    const digits = written.replace(/\D/g, '');
    const cents = /[.,]00$/.test(written) ? digits.slice(0, -2) : digits;
    return cents.replace(/^0+(?=\d)/, '');
  });
}

/** Month numbers (1..12) named in the text. */
function monthsIn(text: string): number[] {
  return [...text.toLowerCase().matchAll(monthWord)].map(
    (match) => months.indexOf((match[1] ?? '').slice(0, 3) as (typeof months)[number]) + 1,
  );
}
