import { TOAST_COPY_MS } from '@altwise/contracts/limits';
import { copyText } from '../../lib/copy-text.ts';
import { describedImageMarkup } from '../../lib/described-image-markup.ts';
import { Button } from './button.tsx';
import { TextAreaField } from './form-fields.tsx';

export const longDescriptionLabel = 'Long description';
export const longDescriptionHint =
  'For charts, diagrams and other complex images: the labels and values in reading order, at most 1,000 characters. Leave it empty for other images.';
export const copyMarkupLabel = 'Copy markup';
export const markupCopied = 'Markup copied!';

/**
 * The long description of an image (ADR 050) in a labelled textarea, and a "Copy markup"
 * button that copies ready HTML: the image with its alt text and `aria-describedby`, and the
 * description as a visible paragraph. The markup is built from what the fields hold now.
 */
export function LongDescriptionField({
  image,
  altText,
  value,
  onChange,
  onBlur,
  error,
}: {
  image: { id: string; src: string };
  altText: string;
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  error?: string | undefined;
}) {
  const copy = () =>
    copyText(
      describedImageMarkup({ id: image.id, src: image.src, alt: altText, longDescription: value }),
      markupCopied,
      { success: { position: 'top-right', duration: TOAST_COPY_MS } },
    );
  return (
    <div className="flex flex-col gap-2">
      <TextAreaField
        label={longDescriptionLabel}
        hint={longDescriptionHint}
        name="longDescription"
        rows={5}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        {...(onBlur ? { onBlur } : {})}
        error={error}
      />
      <div>
        <Button variant="secondary" size="sm" onClick={() => void copy()}>
          {copyMarkupLabel}
        </Button>
      </div>
    </div>
  );
}
