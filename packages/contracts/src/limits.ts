/** Business constants and limits of the product spec §9. */
export const FREE_CREDITS = 25;
export const CREDITS_PER_IMAGE = 1;

export const qualities = ['low', 'medium', 'high'] as const;
export type Quality = (typeof qualities)[number];
/** Credit cost per edit or generated image, by quality. */
export const QUALITY_CREDIT_COST: Record<Quality, number> = { high: 25, medium: 10, low: 5 };
export const DEFAULT_QUALITY: Quality = 'high';
export const CAPTION_CREDIT_COST = 1;

export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024; // 5242880
export const MAX_EDITOR_IMAGE_BYTES = 10 * 1024 * 1024;
export const MAX_REEL_IMAGES = 5;
export const MIN_GENERATED_IMAGES = 1;
export const MAX_GENERATED_IMAGES = 5;
export const MAX_REEL_IMAGE_BYTES = 10 * 1024 * 1024;
export const MAX_MUSIC_BYTES = 10 * 1024 * 1024;
export const MAX_SCRAPE_IMAGES = 200;

export const UPLOAD_PROGRESS_MS_PER_IMAGE = 3000;
export const UPLOAD_PROGRESS_CAP_PERCENT = 95;
export const UPLOAD_PROGRESS_TICK_MS = 100;
export const UPLOAD_REDIRECT_DELAY_MS = 500;

export const LIBRARY_PAGE_SIZES = [25, 50, 100, 500] as const;
export const DEFAULT_LIBRARY_PAGE_SIZE = 25;
export const EXPORT_FILE_NAME = 'exported_images.xlsx';
export const EXPORT_SHEET_NAME = 'Images';
export const EXPORT_COLUMNS = ['Sr No', 'URL', 'AltText'] as const;
/**
 * The export's fourth column (ADR 050), written only when an exported image has a long
 * description, so that a library without charts exports the product spec's three columns exactly.
 */
export const EXPORT_LONG_DESCRIPTION_COLUMN = 'LongDescription';
/**
 * The export's last column (ADR 057): where each alt text came from (`human`, `embedded`,
 * `ai`, `ai-reviewed`, `ai-edited`), written when the exported images say (every library row does).
 */
export const EXPORT_ORIGIN_COLUMN = 'Origin';

export const TOAST_SUCCESS_MS = 3000;
export const TOAST_ERROR_MS = 5000;
export const TOAST_OVERSIZE_MS = 10_000;
export const TOAST_COPY_MS = 1500;

export const POST_LOGIN_DELAY_MS = 100;
export const GOOGLE_SCRIPT_RETRIES = 5;
export const GOOGLE_SCRIPT_RETRY_MS = 1000;
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

export const DATE_FORMAT = 'MMM dd, yyyy';
export const DEFAULT_PLAN_LABEL = 'Trial';
export const DEFAULT_PAYMENT_STATUS = 'Not Subscribed';
export const NOT_AVAILABLE = 'NA';
export const BLOG_READ_TIME = '2 minutes';
/** Longest contact-form message the server accepts. */
export const CONTACT_MESSAGE_MAX_CHARS = 5000;
