// A prerendered page (`/`, `/login`: src/prerender.tsx) can be typed into and clicked before the
// app has taken it over (main.tsx hydrates it once its scripts have run, later on a busy or slow
// device). These hooks keep what was typed and hold a submit until the app can send it.
import { useLayoutEffect, useRef, useSyncExternalStore, type RefObject } from 'react';

/**
 * Keeps what a person typed (or the browser autofilled) into a field before the app took the
 * page over: pass the field's controlled `value` and `onChange`, and put the returned ref on the
 * input.
 *
 * Hydration keeps the typed text in the DOM, but neither puts it into state nor calls onChange
 * for it, so state stays ''. The next render of the input then writes '' back over the text:
 * Mantine's useId swaps the field's ids in a layout effect right after hydration, so the page
 * empties the fields it has just taken over, and a submit sends the empty state. This reads the
 * field once when it mounts, in a layout effect of the same commit as the hydration, before that
 * render, and hands a value that differs to `onChange`. A field drawn by the app (not hydrated)
 * holds its `value` already: nothing happens.
 */
export function useTypedBeforeHydration(
  value: string,
  onChange: (value: string) => void,
): RefObject<HTMLInputElement | null> {
  const ref = useRef<HTMLInputElement>(null);
  // What the first render saw: the effect runs on mount only; later typing reaches onChange itself.
  const mounted = useRef({ value, onChange });
  useLayoutEffect(() => {
    const typed = ref.current?.value;
    if (typed !== undefined && typed !== mounted.current.value) mounted.current.onChange(typed);
  }, []);
  return ref;
}

const subscribeToNothing = () => () => {};

/**
 * False while the page is the prerendered HTML and during its hydration, true once the app runs
 * it (and from the first render of a page the app draws itself). A submit button shows as busy
 * until then: a form submitted before the app runs would reload the page and lose what was typed.
 */
export function useIsHydrated(): boolean {
  return useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
}
