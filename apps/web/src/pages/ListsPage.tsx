import { NotBuiltYetPage } from './NotBuiltYetPage.tsx';

/** /lists (being built). */
export function ListsPage() {
  return <NotBuiltYetPage title="Lists" />;
}
