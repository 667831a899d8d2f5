import { useEffect } from 'react';
import { useMatches } from 'react-router';
import { formatPageTitle, type RouteHandle } from './pageTitle.ts';

/** Keeps `document.title` in step with the deepest route that has a title. */
export function PageTitle() {
  const matches = useMatches();
  const title = [...matches]
    .reverse()
    .map((m) => (m.handle as RouteHandle | undefined)?.title)
    .find(Boolean);
  useEffect(() => {
    document.title = formatPageTitle(title);
  }, [title]);
  return null;
}
