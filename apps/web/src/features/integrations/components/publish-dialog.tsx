import type { PublishPreviewResponse } from '@altwise/contracts/integrations';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { Thumbnail, wideDialog } from '../../../components/ui/image-preview.tsx';

/**
 * What a publish will write and where, asked before anything is written (ADR 069): each place with
 * the image's file name and thumbnail, the post's title (or the media library), the alt now and the
 * approved words; then the approved images held back because their words may not go live.
 */
export function PublishDialog({
  siteUrl,
  preview,
  publishing,
  onConfirm,
  onClose,
}: {
  siteUrl: string;
  preview: PublishPreviewResponse;
  publishing: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const n = preview.items.length;
  const held = preview.heldBack.length;
  return (
    <Dialog open onClose={onClose} title={`Publish to ${siteUrl}?`} className={wideDialog}>
      <div className="flex flex-col gap-4">
        <p className="text-slate-700">
          {n === 0
            ? 'Nothing new would be written.'
            : `${n} alt text${n === 1 ? '' : 's'} will be written. Nothing is written until you confirm.`}
          {preview.unchanged > 0
            ? ` ${preview.unchanged} ${preview.unchanged === 1 ? 'place already says' : 'places already say'} the approved words.`
            : ''}
        </p>
        {n > 0 ? (
          <div className="max-h-[50vh] overflow-auto">
            <table className="w-full min-w-[36rem] border-collapse text-left text-sm">
              <caption className="sr-only">What will be written, before and after</caption>
              <thead>
                <tr className="border-b border-slate-300 text-slate-900">
                  <th scope="col" className="py-2 pr-3 font-semibold">
                    Image
                  </th>
                  <th scope="col" className="py-2 pr-3 font-semibold">
                    Where
                  </th>
                  <th scope="col" className="py-2 pr-3 font-semibold">
                    Before
                  </th>
                  <th scope="col" className="py-2 font-semibold">
                    After
                  </th>
                </tr>
              </thead>
              <tbody>
                {preview.items.map((item) => (
                  <tr
                    key={`${item.imageId}-${item.postId ?? 'library'}`}
                    className="border-b border-slate-200 align-top"
                  >
                    <th scope="row" className="py-2 pr-3 font-normal">
                      <span className="flex items-center gap-2">
                        <Thumbnail url={item.src} className="size-10" />
                        <span className="break-all">{item.fileName}</span>
                      </span>
                    </th>
                    <td className="py-2 pr-3">{item.postTitle ? `“${item.postTitle}”` : 'Media library'}</td>
                    <td className="py-2 pr-3 break-words">{item.before || <em>(none)</em>}</td>
                    <td className="py-2 break-words">{item.after}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
        {held > 0 ? (
          <div className="flex flex-col gap-1">
            <h3 className="font-semibold text-slate-900">
              {held} image{held === 1 ? ' needs' : 's need'} your words
            </h3>
            <p className="text-slate-700">
              Their approved alt text may not go live as it is, so they are left out. Write or mark them in
              the audit’s review.
            </p>
            <ul className="list-disc pl-6 text-sm text-slate-700">
              {preview.heldBack.map((item) => (
                <li key={`${item.imageId}-${item.postId ?? 'library'}`}>
                  {item.fileName}
                  {item.postTitle ? ` in “${item.postTitle}”` : ' (media library)'}: {item.message}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        <div className="flex flex-wrap gap-3">
          <Button disabled={n === 0} isLoading={publishing} loadingText="Starting..." onClick={onConfirm}>
            {n === 0 ? 'Nothing to publish' : `Publish ${n} alt text${n === 1 ? '' : 's'}`}
          </Button>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
