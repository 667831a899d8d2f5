import { Anchor, Button } from '@mantine/core';
import { SUPPORT_EMAIL } from '../components/supportEmail.ts';
import { askConsentAgain, useTagManagerEnabled } from '../features/consent/index.ts';
import {
  DATA_DELETION_DAYS,
  LEGAL_UPDATED,
  MINIMUM_AGE_YEARS,
  POLICY_CHANGE_NOTICE_DAYS,
} from './legal.ts';
import classes from './TextPage.module.css';

/** The Privacy page's words that tests and other screens refer to. */
export const PRIVACY_TEXTS = {
  changeAnalytics: 'Change your analytics choice',
} as const;

/** /privacy */
export function PrivacyPage() {
  const isTagManagerOn = useTagManagerEnabled();
  return (
    <article className={classes.page}>
      <h1>Privacy Policy</h1>
      <p className={classes.meta}>Last updated {LEGAL_UPDATED}</p>
      <p>This policy explains what Adloom collects, why, who else sees it, and your choices.</p>
      <h2>What we collect</h2>
      <ul>
        <li>Your email address and a salted hash of your password (never the password itself).</li>
        <li>The clients, feeds, lists and templates you save, so you can work with them again.</li>
        <li>Feedback you send us, and the email address when you join the waiting list.</li>
        <li>
          If you link a Google account for Google Sheets, an access token (kept encrypted) that lets
          Adloom read and write the sheets you link. You can unlink at any time on the Account page.
        </li>
        <li>
          Technical logs of requests (time, address, page, outcome) to keep the service running and
          secure. They never hold passwords, session tokens or reset links.
        </li>
      </ul>
      <h2>How we use it</h2>
      <p>
        Only to run the service for you, to answer your messages, and to keep Adloom secure. We do
        not sell your data and we do not use your feeds or campaigns for anything but your own work.
      </p>
      <h2>Third parties</h2>
      <p>
        Adloom runs on its own servers. Some features reach other services, and only when you use
        them or when the operator of this Adloom has turned them on:
      </p>
      <ul>
        <li>
          <strong>Google</strong>: when you link Google Sheets, Google signs you in and Adloom reads
          and writes the sheets you link through Google&apos;s Sheets API.
        </li>
        <li>
          <strong>Google reCAPTCHA</strong>: when the bot check is on, the sign-up page loads
          Google&apos;s reCAPTCHA, which sends Google information about your browser to tell people
          from bots.
        </li>
        <li>
          <strong>YouTube</strong>: help and introduction videos play in YouTube&apos;s
          privacy-enhanced player (youtube-nocookie.com), which sets no tracking cookie until you
          play a video.
        </li>
        <li>
          <strong>A scheduling widget</strong>: the contact page can show a booking calendar from a
          scheduling service, which receives what you enter there.
        </li>
        <li>
          <strong>Google Tag Manager and Google Analytics</strong>: only if you allow analytics in
          the banner that asks you. They then record pages visited, errors and saved lists, never
          the contents of your feeds, templates or campaigns.
        </li>
        <li>
          <strong>An AI model provider</strong>: when you ask the AI helper for suggestions, the
          description and settings you typed are sent to the model that writes them.
        </li>
        <li>
          <strong>Shops&apos; feed servers</strong>: when you add an XML product feed, Adloom
          fetches it from the address you give.
        </li>
        <li>
          <strong>An email provider</strong>: password-reset and other account emails are sent
          through it.
        </li>
      </ul>
      {isTagManagerOn ? (
        <p>
          <Button variant="light" size="xs" onClick={askConsentAgain}>
            {PRIVACY_TEXTS.changeAnalytics}
          </Button>
        </p>
      ) : null}
      <h2>Children</h2>
      <p>
        Adloom is not meant for anyone under {MINIMUM_AGE_YEARS}, and we do not knowingly collect
        their data.
      </p>
      <h2>Keeping and deleting data</h2>
      <p>
        When you delete your account, your account and everything in it is removed at once. Copies
        in our backups are erased within {DATA_DELETION_DAYS} days. Password-reset links expire
        after one hour and can be used only once.
      </p>
      <h2>Changes to this policy</h2>
      <p>
        When we change this policy in a way that matters, we tell you by email at least{' '}
        {POLICY_CHANGE_NOTICE_DAYS} days before the change applies, and the date at the top of this
        page changes.
      </p>
      <h2>Contact</h2>
      <p>
        Questions, or a request to see or correct your data:{' '}
        <Anchor href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</Anchor>.
      </p>
    </article>
  );
}
