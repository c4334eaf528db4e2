import {
  type Announcement,
  type AnnouncementFlag,
  MAX_PAGE_ANNOUNCEMENTS,
  VERBOSE_NAME_CHARS,
} from '@altwise/contracts/audit';
import { normaliseForComparison } from '../rules/alt-rules.ts';

/**
 * The screen-reader preview of one page (point 4): what a screen reader announces for its
 * headings, links, buttons and images, with the text between them, in reading order; and which of
 * those announcements are redundant or verbose. extract-page.ts collects the sequence while it reads
 * the page (in the page worker); `markAnnouncements` judges it. Pure and linear in the sequence.
 */

/** Longest name or text kept in an announcement. */
export const ANNOUNCED_NAME_MAX_CHARS = 200;
/** Longest run of text between two announcements that is kept. */
export const ANNOUNCED_TEXT_MAX_CHARS = 150;

/** One announcement while the page is read: its full name length and, for a control, its parts. */
export type CollectedAnnouncement = {
  role: Announcement['role'];
  name: string;
  level?: number;
  href?: string;
  image?: boolean;
  /** The names of the images inside a link or button. */
  imageNames?: string[];
  /** A link's or button's own text, without its images. */
  ownText?: string;
};

/** An announcement as stored: what a screen reader says is made from it when it is read (spokenOf). */
export type StoredAnnouncement = Omit<Announcement, 'spoken'>;

export type PageAnnouncements = { items: StoredAnnouncement[]; truncated: boolean };

function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const characters = Array.from(text);
  return characters.length > max ? `${characters.slice(0, max - 1).join('')}…` : text;
}

const quoted = (text: string) => `“${cut(text, 60)}”`;

/** "image of", "picture of", "link to": the medium, which the screen reader already announces. */
const mediumPrefix =
  /^(?:an?\s+|the\s+)?(image|picture|photo|photograph|graphic|illustration|icon|logo image|link)\s+(of|to|showing)\b/i;

/** What a screen reader says for an announcement, roughly ("link, image, Harbour Lights"). */
export function spokenOf(item: StoredAnnouncement): string {
  switch (item.role) {
    case 'text':
      return item.name;
    case 'heading':
      return `heading level ${item.level ?? 2}, ${item.name}`;
    case 'image':
      return item.name ? `image, ${item.name}` : 'image (no name: some screen readers read its file name)';
    default:
      return `${item.role}${item.image ? ', image' : ''}, ${item.name || '(no name)'}`;
  }
}

const hasWords = (text: string) => /[\p{L}\p{N}]/u.test(text);

/** The announcements with their flags; more than MAX_PAGE_ANNOUNCEMENTS are cut and said so. */
export function markAnnouncements(collected: CollectedAnnouncement[], truncated = false): PageAnnouncements {
  const items = collected.slice(0, MAX_PAGE_ANNOUNCEMENTS);
  const marked = items.map((item, index): StoredAnnouncement => {
    const flags: AnnouncementFlag[] = [];
    const key = item.role === 'image' ? normaliseForComparison(item.name) : '';
    if (item.role !== 'text' && item.name) {
      const length = item.name.length > VERBOSE_NAME_CHARS ? Array.from(item.name).length : 0;
      if (length > VERBOSE_NAME_CHARS)
        flags.push({
          kind: 'verbose',
          message: `Its name is ${length} characters long (more than ${VERBOSE_NAME_CHARS}), and screen readers read all of it every time.`,
        });
      const medium = mediumPrefix.exec(item.name.trim());
      if (medium && (item.role === 'image' || item.image))
        flags.push({
          kind: 'verbose',
          message: `Its name starts with ${quoted(medium[0])}, which the screen reader already says by announcing the ${item.role === 'image' ? 'image' : `${item.role} and its image`}.`,
        });
    }
    if ((item.role === 'link' || item.role === 'button') && item.image && item.ownText) {
      const own = normaliseForComparison(item.ownText);
      const repeated = item.imageNames?.find((name) => own && normaliseForComparison(name) === own);
      if (repeated)
        flags.push({
          kind: 'redundant',
          message: `The image’s name ${quoted(repeated)} repeats the ${item.role}’s text, so screen readers say it twice.`,
        });
    }
    if (item.role === 'link' && item.href) {
      // The link before, when only punctuation or nothing stands between them.
      let before = index - 1;
      const between = items[before];
      if (between?.role === 'text' && !hasWords(between.name)) before--;
      const previous = items[before];
      if (
        previous?.role === 'link' &&
        previous.href === item.href &&
        (previous.image || item.image) &&
        before >= 0
      )
        flags.push({
          kind: 'redundant',
          message: `It goes to the same address as the ${previous.image ? 'image link' : 'link'} ${quoted(previous.name || previous.href)} just before it, so screen readers announce two links where one would do.`,
        });
    }
    if (item.role === 'image' && key) {
      for (const neighbour of [items[index - 1], items[index + 1]]) {
        if (neighbour?.role !== 'text') continue;
        const text = normaliseForComparison(neighbour.name);
        const repeats =
          text === key ||
          (key.length >= 10 &&
            (text.startsWith(`${key} `) || text.endsWith(` ${key}`) || text.includes(` ${key} `)));
        if (repeats) {
          flags.push({
            kind: 'redundant',
            message: `Its name repeats the text beside it (${quoted(neighbour.name)}), so screen readers read it twice.`,
          });
          break;
        }
      }
    }
    const announcement: StoredAnnouncement = {
      role: item.role,
      name: cut(item.name, item.role === 'text' ? ANNOUNCED_TEXT_MAX_CHARS : ANNOUNCED_NAME_MAX_CHARS),
      flags,
    };
    if (item.level !== undefined) announcement.level = item.level;
    if (item.href !== undefined) announcement.href = item.href;
    if (item.image) announcement.image = true;
    return announcement;
  });
  return { items: marked, truncated: truncated || collected.length > MAX_PAGE_ANNOUNCEMENTS };
}
