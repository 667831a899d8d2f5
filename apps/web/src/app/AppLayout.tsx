import { Suspense } from 'react';
import { Button, UnstyledButton } from '@mantine/core';
import { Link, Outlet, useLocation } from 'react-router';
import { Logo } from '../components/Logo.tsx';
import { LoadingIndicator } from '../components/LoadingIndicator.tsx';
import { NotificationStack } from '../components/NotificationStack.tsx';
import { ConsentBanner } from '../features/consent/index.ts';
import { useSession } from '../state/useSession.ts';
import { Footer } from './Footer.tsx';
import { CONTENT_ID } from './contentId.ts';
import { PageTitle } from './PageTitle.tsx';
import { lazyPage } from './lazyPage.ts';
import { usePrefetchSignedInApp } from './prefetch.ts';
import classes from './AppLayout.module.css';

// The signed-in frame comes in its own chunk: the public pages load none of the builder's code.
const SignedInShell = lazyPage(() => import('./SignedInShell.tsx'), 'SignedInShell');

const SIGN_IN_PATHS = /^\/(?:login|register|reset\/)/;

/** The frame of every screen: sidebar (signed in) or top bar (signed out), content, footer. */
export function AppLayout() {
  const current = useSession();
  const { pathname } = useLocation();
  // Someone on a sign-in page is about to use the signed-in app: fetch its files meanwhile.
  usePrefetchSignedInApp(!current && SIGN_IN_PATHS.test(pathname));

  const content = (
    <>
      <div className={classes.content}>
        <Suspense fallback={null}>
          <Outlet />
        </Suspense>
      </div>
      <Footer />
    </>
  );

  const overlays = (
    <>
      <a
        href={`#${CONTENT_ID}`}
        className={classes.skipLink}
        onClick={(event) => {
          event.preventDefault();
          document.getElementById(CONTENT_ID)?.focus();
        }}
      >
        Skip to content
      </a>
      <PageTitle />
      <NotificationStack />
      <LoadingIndicator />
      <ConsentBanner />
    </>
  );

  if (!current) {
    return (
      <div className={classes.page}>
        {overlays}
        <header className={classes.topBar}>
          <div className={classes.topBarInner}>
            <UnstyledButton component={Link} to="/" aria-label="Adloom home">
              <Logo />
            </UnstyledButton>
            <nav aria-label="Main" className={classes.topBarNav}>
              <Button component={Link} to="/combinations" variant="subtle" px="xs">
                Keyword Combiner
              </Button>
              <Button component={Link} to="/login" variant="light">
                Log In
              </Button>
            </nav>
          </div>
        </header>
        <main id={CONTENT_ID} tabIndex={-1} className={classes.main}>
          {content}
        </main>
      </div>
    );
  }

  return (
    <Suspense fallback={overlays}>
      <SignedInShell user={current.user} overlays={overlays} content={content} />
    </Suspense>
  );
}
