import { lazy, type ComponentType } from 'react';

/**
 * A component in a chunk of its own (the signed-in frame, the signed-in pages and the tools),
 * loaded when first shown (a Suspense boundary waits for it), with all of the UI kit's styles:
 * main.tsx loads only the public pages' share.
 */
export function lazyPage<Name extends string, Props extends object>(
  load: () => Promise<Record<Name, ComponentType<Props>>>,
  name: Name,
) {
  return lazy(() =>
    Promise.all([load(), import('@mantine/core/styles.layer.css')]).then(
      ([module]): { default: ComponentType<Props> } => ({ default: module[name] }),
    ),
  );
}
