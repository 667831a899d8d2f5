import { Anchor } from '@mantine/core';
import { SUPPORT_EMAIL } from '../components/supportEmail.ts';
import { DATA_DELETION_DAYS, LEGAL_UPDATED, MINIMUM_AGE_YEARS } from './legal.ts';
import classes from './TextPage.module.css';

/** /privacy */
export function PrivacyPage() {
  return (
    <article className={classes.page}>
      <h1>Privacy Policy</h1>
      <p className={classes.meta}>Last updated {LEGAL_UPDATED}</p>
      <p>This policy explains what Adloom collects, why, and the choices you have.</p>
      <h2>What we collect</h2>
      <ul>
        <li>Your email address and a salted hash of your password (never the password itself).</li>
        <li>The clients, feeds, lists and templates you save, so you can work with them again.</li>
        <li>Feedback you send us, and the email address when you join the waiting list.</li>
        <li>
          If you link Google Sheets, an access token that lets Adloom read and write the sheets you
          link. You can unlink at any time.
        </li>
      </ul>
      <h2>How we use it</h2>
      <p>
        Only to run the service for you, to answer your messages, and to keep Adloom secure. We do
        not sell your data and we do not use your feeds or campaigns for anything but your own work.
      </p>
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
      <h2>Contact</h2>
      <p>
        Questions, or a request to see or correct your data:{' '}
        <Anchor href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</Anchor>.
      </p>
    </article>
  );
}
