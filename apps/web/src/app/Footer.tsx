import { useSyncExternalStore } from 'react';
import { Anchor } from '@mantine/core';
import { Link } from 'react-router';
import { SUPPORT_EMAIL } from '../components/supportEmail.ts';
import classes from './Footer.module.css';

const SOCIAL_LINKS = [
  { label: 'LinkedIn', href: 'https://www.linkedin.com/company/adloom' },
  { label: 'YouTube', href: 'https://www.youtube.com/@adloom' },
  { label: 'X', href: 'https://x.com/adloom' },
];

const noChanges = () => () => {};

/**
 * This year, in the browser; none in a page the build prerendered (its year may have passed) and
 * while such a page is hydrated, which then shows it.
 */
function useThisYear(): number | null {
  return useSyncExternalStore(
    noChanges,
    () => new Date().getFullYear(),
    () => null,
  );
}

/** The footer: contact, social links and the legal pages. */
export function Footer() {
  const year = useThisYear();
  return (
    <footer className={classes.footer}>
      <div className={classes.inner}>
        <nav aria-label="Contact" className={classes.group}>
          <Anchor component={Link} to="/contact" size="sm" c="dimmed">
            Contact
          </Anchor>
          <Anchor href={`mailto:${SUPPORT_EMAIL}`} size="sm" c="dimmed">
            {SUPPORT_EMAIL}
          </Anchor>
        </nav>
        <nav aria-label="Social media" className={classes.group}>
          {SOCIAL_LINKS.map((s) => (
            <Anchor
              key={s.label}
              href={s.href}
              size="sm"
              c="dimmed"
              target="_blank"
              rel="noopener noreferrer"
              aria-label={`Adloom on ${s.label}`}
            >
              {s.label}
            </Anchor>
          ))}
        </nav>
        <nav aria-label="Legal" className={classes.group}>
          <Anchor component={Link} to="/terms" size="sm" c="dimmed">
            Terms
          </Anchor>
          <Anchor component={Link} to="/privacy" size="sm" c="dimmed">
            Privacy
          </Anchor>
          <span className={classes.copy}>© {year === null ? '' : `${year} `}Adloom</span>
        </nav>
      </div>
    </footer>
  );
}
