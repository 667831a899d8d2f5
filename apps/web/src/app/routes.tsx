import { Navigate, type RouteObject } from 'react-router';
import { AppLayout } from './AppLayout.tsx';
import { lazyPage } from './lazyPage.ts';
import { BuilderProvider } from '../features/builder/BuilderProvider.tsx';
import { RedirectIfSignedIn, RequireAuth } from './guards.tsx';
import type { RouteHandle } from './pageTitle.ts';
import { LandingPage } from '../pages/LandingPage.tsx';
import { ContactPage } from '../pages/ContactPage.tsx';
import { TermsPage } from '../pages/TermsPage.tsx';
import { PrivacyPage } from '../pages/PrivacyPage.tsx';
import { LoginPage, RegisterPage } from '../pages/LoginPage.tsx';
import { ResetPasswordPage } from '../pages/ResetPasswordPage.tsx';
import { VerifyEmailPage } from '../pages/VerifyEmailPage.tsx';
import { NotFoundPage } from '../pages/NotFoundPage.tsx';
import { ServiceDownPage } from '../pages/ServiceDownPage.tsx';

const titled = (title: string): RouteHandle => ({ title });

// The public pages (landing, sign-in, legal) come with the app's first chunk; the signed-in
// pages and the tools load their own code only when opened.
const CampaignBuilderPage = lazyPage(
  () => import('../pages/CampaignBuilderPage.tsx'),
  'CampaignBuilderPage',
);
const ListsPage = lazyPage(() => import('../pages/ListsPage.tsx'), 'ListsPage');
const AccountPage = lazyPage(() => import('../pages/AccountPage.tsx'), 'AccountPage');
const CombinationsPage = lazyPage(
  () => import('../pages/CombinationsPage.tsx'),
  'CombinationsPage',
);
const SandboxPage = lazyPage(() => import('../pages/SandboxPage.tsx'), 'SandboxPage');

/** Spec section 2: every route, its guard and its title. */
export const routes: RouteObject[] = [
  {
    // The builder's workspace outlives its page: leaving the builder and coming back keeps it.
    element: (
      <BuilderProvider>
        <AppLayout />
      </BuilderProvider>
    ),
    children: [
      {
        path: '/',
        element: (
          <RedirectIfSignedIn>
            <LandingPage />
          </RedirectIfSignedIn>
        ),
      },
      { path: '/contact', element: <ContactPage />, handle: titled('Contact') },
      { path: '/terms', element: <TermsPage />, handle: titled('Terms') },
      { path: '/privacy', element: <PrivacyPage />, handle: titled('Privacy') },
      {
        path: '/combinations',
        element: <CombinationsPage />,
        handle: titled('Keyword Combiner'),
      },
      { path: '/sandbox', element: <SandboxPage />, handle: titled('Sandbox') },
      { path: '/login', element: <LoginPage />, handle: titled('Log In') },
      { path: '/register', element: <RegisterPage />, handle: titled('Create Account') },
      { path: '/reset/:token', element: <ResetPasswordPage />, handle: titled('Reset Password') },
      {
        path: '/verify-email/:token',
        element: <VerifyEmailPage />,
        handle: titled('Verify Email Address'),
      },
      {
        path: '/campaign-builder',
        element: (
          <RequireAuth>
            <CampaignBuilderPage />
          </RequireAuth>
        ),
        handle: titled('Campaign Builder'),
      },
      {
        path: '/account',
        element: (
          <RequireAuth>
            <AccountPage />
          </RequireAuth>
        ),
        handle: titled('Account'),
      },
      {
        path: '/lists',
        element: (
          <RequireAuth>
            <ListsPage />
          </RequireAuth>
        ),
        handle: titled('Lists'),
      },
      { path: '/404', element: <NotFoundPage />, handle: titled('Page Not Found') },
      { path: '/service-down', element: <ServiceDownPage />, handle: titled('Service Down') },
      { path: '*', element: <Navigate to="/404" replace /> },
    ],
  },
];
