import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useSession } from '../state/useSession.ts';
import { wasSignedOutOnAdminPage } from './adminSignOut.ts';

/** Spec section 2: a signed-in route needs a stored token, else /login. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const current = useSession();
  const location = useLocation();
  if (!current?.token) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  return children;
}

/** Spec section 2: a signed-in visitor of the landing page goes to the campaign builder. */
export function RedirectIfSignedIn({
  children,
  to = '/campaign-builder',
}: {
  children: ReactNode;
  to?: string;
}) {
  const current = useSession();
  if (current?.token) return <Navigate to={to} replace />;
  return children;
}

/**
 * Issue 38: the Admin page is an operator's only (a verified address named by ADMIN_EMAILS, as
 * the server says with `isAdmin`); everyone else, signed in or not, gets the 404 page as for a
 * page that does not exist. The server refuses its calls to anyone else all the same.
 */
export function RequireOperator({ children }: { children: ReactNode }) {
  const current = useSession();
  if (current?.token)
    return current.user.isAdmin === true ? children : <Navigate to="/404" replace />;
  return <Navigate to={wasSignedOutOnAdminPage() ? '/login' : '/404'} replace />;
}
