import { type KeyboardEvent, type ReactNode, useId, useRef } from 'react';

export type ImageTab = 'original' | 'captioned';

const tabs: readonly { id: ImageTab; label: string }[] = [
  { id: 'original', label: 'Original Images' },
  { id: 'captioned', label: 'Captioned Images' },
];

/**
 * The Original / Captioned tabs of the product spec §2 as an ARIA tablist: arrow keys, Home and End move between
 * the enabled tabs; Captioned Images is disabled until captions exist (the product spec §4).
 */
export function ImageTabs({
  selected,
  captionedDisabled,
  onSelect,
  children,
}: {
  selected: ImageTab;
  captionedDisabled: boolean;
  onSelect: (tab: ImageTab) => void;
  children: ReactNode;
}) {
  const baseId = useId();
  const refs = useRef<Record<ImageTab, HTMLButtonElement | null>>({ original: null, captioned: null });
  const enabled = tabs.filter((tab) => tab.id === 'original' || !captionedDisabled);

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    const index = enabled.findIndex((tab) => tab.id === selected);
    let next: number | undefined;
    if (event.key === 'ArrowRight') next = (index + 1) % enabled.length;
    if (event.key === 'ArrowLeft') next = (index - 1 + enabled.length) % enabled.length;
    if (event.key === 'Home') next = 0;
    if (event.key === 'End') next = enabled.length - 1;
    const target = next === undefined ? undefined : enabled[next];
    if (!target) return;
    event.preventDefault();
    onSelect(target.id);
    refs.current[target.id]?.focus();
  };

  return (
    <div>
      <div role="tablist" aria-label="Images for the reel" className="flex gap-2 border-b border-slate-300">
        {tabs.map((tab) => {
          const isSelected = tab.id === selected;
          const disabled = tab.id === 'captioned' && captionedDisabled;
          return (
            <button
              key={tab.id}
              ref={(node) => {
                refs.current[tab.id] = node;
              }}
              type="button"
              role="tab"
              id={`${baseId}-${tab.id}-tab`}
              aria-selected={isSelected}
              aria-controls={`${baseId}-panel`}
              tabIndex={isSelected ? 0 : -1}
              disabled={disabled}
              onClick={() => onSelect(tab.id)}
              onKeyDown={onKeyDown}
              className={`-mb-px min-h-11 border-b-2 px-4 text-sm font-semibold disabled:cursor-not-allowed disabled:text-slate-500 ${
                isSelected
                  ? 'border-indigo-700 text-indigo-800'
                  : 'border-transparent text-slate-800 hover:text-indigo-800'
              }`}
            >
              {tab.label}
            </button>
          );
        })}
      </div>
      <div
        role="tabpanel"
        id={`${baseId}-panel`}
        aria-labelledby={`${baseId}-${selected}-tab`}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the ARIA tabs pattern makes the panel focusable.
        tabIndex={0}
        className="pt-4"
      >
        {children}
      </div>
    </div>
  );
}
