import { useEffect, useRef, type ReactNode } from 'react';
import {
  AppShell,
  Burger,
  Group,
  NavLink as MantineNavLink,
  Stack,
  Text,
  UnstyledButton,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Link, NavLink, useLocation, useNavigate } from 'react-router';
import type { PublicUser } from '@adloom/contract';
import { Logo } from '../components/Logo.tsx';
import { AiHelper } from '../features/ai-helper/AiHelper.tsx';
import { FeedbackButton } from '../features/feedback/FeedbackButton.tsx';
import { HelpOverlay } from '../features/help/HelpOverlay.tsx';
import { helpOverlayOpen } from '../features/help/helpStore.ts';
import { logOut } from '../features/auth/logOut.ts';
import { setEngineWorkerFactory } from '../features/generation/index.ts';
import { createEngineWorker } from '../worker/createEngineWorker.ts';
import { CONTENT_ID } from './contentId.ts';
import classes from './AppLayout.module.css';

// The engine jobs run only in the signed-in app, so their worker is installed with it.
setEngineWorkerFactory(createEngineWorker);

const SIGNED_IN_LINKS = [
  { to: '/campaign-builder', label: 'Campaign Builder' },
  { to: '/combinations', label: 'Keyword Combiner' },
  { to: '/lists', label: 'Lists' },
  { to: '/account', label: 'Account' },
];
/** Issue 38: the operators' page, in the sidebar of operators only. */
const ADMIN_LINK = { to: '/admin', label: 'Admin' };

/**
 * The signed-in frame: header, sidebar, the page, the guides and the AI helper. Its own chunk
 * (loaded by AppLayout when someone is signed in), so the public pages load none of it.
 */
export function SignedInShell({
  user,
  overlays,
  content,
}: {
  user: PublicUser;
  overlays: ReactNode;
  content: ReactNode;
}) {
  const [isNavOpen, { toggle, close }] = useDisclosure(false);
  const location = useLocation();
  const navigate = useNavigate();

  useEffect(() => close(), [location.pathname, close]);

  // On a phone the navigation is a drawer: Escape closes it, as it closes a dialog, and the
  // focus goes back to the burger that opened it. A dialog open over it takes its Escape first.
  const burgerRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!isNavOpen) return;
    function handleKeyDown(event: KeyboardEvent) {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      if (document.querySelector('[role="dialog"]')) return;
      close();
      burgerRef.current?.focus();
    }
    document.addEventListener('keydown', handleKeyDown);
    return () => document.removeEventListener('keydown', handleKeyDown);
  }, [isNavOpen, close]);

  function handleLogOut() {
    // Signed out here at once; the server ends the token in the background (best effort).
    void logOut();
    navigate('/login');
  }

  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 232, breakpoint: 'sm', collapsed: { mobile: !isNavOpen } }}
      padding={0}
    >
      {overlays}
      <AppShell.Header className={classes.shellHeader}>
        <Group h="100%" px="md" gap="sm">
          <Burger
            ref={burgerRef}
            opened={isNavOpen}
            onClick={toggle}
            hiddenFrom="sm"
            size="sm"
            aria-label={isNavOpen ? 'Close navigation' : 'Open navigation'}
          />
          <UnstyledButton
            component={Link}
            to="/campaign-builder"
            aria-label="Adloom campaign builder"
          >
            <Logo />
          </UnstyledButton>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="sm" aria-label="Main">
        <Stack gap={4} className={classes.navStack}>
          {[...SIGNED_IN_LINKS, ...(user.isAdmin ? [ADMIN_LINK] : [])].map((link) => (
            <MantineNavLink
              key={link.to}
              component={NavLink}
              to={link.to}
              label={link.label}
              className={classes.navLink}
            />
          ))}
          <MantineNavLink
            component="button"
            label="Guides"
            onClick={() => {
              close();
              helpOverlayOpen.set(true);
            }}
            className={classes.navLink}
          />
          <MantineNavLink
            component="button"
            label="Log Out"
            onClick={handleLogOut}
            className={classes.navLink}
          />
          <div className={classes.navFooter}>
            <FeedbackButton />
            <Text size="xs" c="dimmed" truncate="end" title={user.email}>
              Signed in as
              <br />
              <strong>{user.email}</strong>
            </Text>
          </div>
        </Stack>
      </AppShell.Navbar>
      <AppShell.Main id={CONTENT_ID} tabIndex={-1} className={classes.shellMain}>
        {content}
      </AppShell.Main>
      <HelpOverlay />
      <AiHelper />
    </AppShell>
  );
}
