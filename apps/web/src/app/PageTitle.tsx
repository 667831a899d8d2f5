import { useEffect } from 'react';
import { useMatches } from 'react-router';
import { deepestTitle, formatPageTitle } from './pageTitle.ts';

/** Keeps `document.title` in step with the deepest route that has a title. */
export function PageTitle() {
  const matches = useMatches();
  const title = deepestTitle(matches.map((m) => m.handle));
  useEffect(() => {
    document.title = formatPageTitle(title);
  }, [title]);
  return null;
}
