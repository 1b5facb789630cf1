import { type RefObject, useCallback, useRef } from 'react';

interface OutsideEvent {
  target: EventTarget | null;
  preventDefault(): void;
}

/**
 * Chakra's dialogs and drawers (Zag's dismissable layer) close on a pointer press or a focus move
 * "outside" their content. Under React StrictMode (development builds) a component mounts twice,
 * and the layer can keep the first, discarded content node: focus moving into the live dialog then
 * counts as outside, and a dialog opened by a real click closes again about 200 ms later.
 *
 * Give the content `contentRef` and the root `onInteractOutside`: an event whose target is inside
 * the live content never dismisses; a real outside press or Escape still does.
 */
export function useOutsideDismissGuard<T extends HTMLElement = HTMLDivElement>(): {
  contentRef: RefObject<T | null>;
  onInteractOutside(event: OutsideEvent): void;
} {
  const contentRef = useRef<T>(null);
  const onInteractOutside = useCallback((event: OutsideEvent) => {
    const content = contentRef.current;
    if (content && event.target instanceof Node && content.contains(event.target)) event.preventDefault();
  }, []);
  return { contentRef, onInteractOutside };
}
