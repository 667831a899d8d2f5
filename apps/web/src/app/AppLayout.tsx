import { useEffect } from 'react';
import {
  AppShell,
  Burger,
  Button,
  Group,
  NavLink as MantineNavLink,
  Stack,
  Text,
  UnstyledButton,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Link, NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { Logo } from '../components/Logo.tsx';
import { LoadingIndicator } from '../components/LoadingIndicator.tsx';
import { NotificationStack } from '../components/NotificationStack.tsx';
import { AiHelper } from '../features/ai-helper/AiHelper.tsx';
import { FeedbackButton } from '../features/feedback/FeedbackButton.tsx';
import { HelpOverlay } from '../features/help/HelpOverlay.tsx';
import { helpOverlayOpen } from '../features/help/helpStore.ts';
import { logOut } from '../features/auth/logOut.ts';
import { useSession } from '../state/useSession.ts';
import { Footer } from './Footer.tsx';
import { PageTitle } from './PageTitle.tsx';
import classes from './AppLayout.module.css';

const SIGNED_IN_LINKS = [
  { to: '/campaign-builder', label: 'Campaign Builder' },
  { to: '/lists', label: 'Lists' },
  { to: '/account', label: 'Account' },
];

/** The main content, where 'Skip to content' moves the focus. */
const CONTENT_ID = 'content';

/** The frame of every screen: sidebar (signed in) or top bar (signed out), content, footer. */
export function AppLayout() {
  const current = useSession();
  const [isNavOpen, { toggle, close }] = useDisclosure(false);
  const location = useLocation();
  const navigate = useNavigate();

  useEffect(() => close(), [location.pathname, close]);

  function handleLogOut() {
    // Signed out here at once; the server ends the token in the background (best effort).
    void logOut();
    navigate('/login');
  }

  const content = (
    <>
      <div className={classes.content}>
        <Outlet />
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
            <nav aria-label="Main">
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
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 232, breakpoint: 'sm', collapsed: { mobile: !isNavOpen } }}
      padding={0}
    >
      {overlays}
      <AppShell.Header className={classes.shellHeader}>
        <Group h="100%" px="md" gap="sm">
          <Burger
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
          {SIGNED_IN_LINKS.map((link) => (
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
            <Text size="xs" c="dimmed" truncate="end" title={current.user.email}>
              Signed in as
              <br />
              <strong>{current.user.email}</strong>
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
