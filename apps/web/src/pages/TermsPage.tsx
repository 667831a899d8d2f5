import { Anchor } from '@mantine/core';
import { Link } from 'react-router';
import { SUPPORT_EMAIL } from '../components/supportEmail.ts';
import { LEGAL_UPDATED, MINIMUM_AGE_YEARS, POLICY_CHANGE_NOTICE_DAYS } from './legal.ts';
import classes from './TextPage.module.css';

/** /terms */
export function TermsPage() {
  return (
    <article className={classes.page}>
      <h1>Terms of Service</h1>
      <p className={classes.meta}>Last updated {LEGAL_UPDATED}</p>
      <p>
        These terms govern your use of Adloom, a tool for building search advertising campaigns from
        data feeds and templates. By creating an account or using the service you agree to them.
      </p>
      <h2>1. Your account</h2>
      <p>
        You must be at least {MINIMUM_AGE_YEARS} years old to use Adloom. Keep your password
        private; you are responsible for what happens under your account. Tell us straight away at{' '}
        <Anchor href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</Anchor> if you think someone else
        has used it.
      </p>
      <h2>2. Your content</h2>
      <p>
        Feeds, lists, templates and the campaigns you generate stay yours. You give us permission to
        store and process them only to run the service for you. You are responsible for making sure
        your ads follow the advertising platform&apos;s policies and the law.
      </p>
      <h2>3. Price</h2>
      <p>
        Adloom has no paid plans: there are no subscriptions, payments or charges. If that ever
        changes, we will tell you at least {POLICY_CHANGE_NOTICE_DAYS} days ahead, and nothing will
        be charged without your agreement.
      </p>
      <h2>4. Acceptable use</h2>
      <p>
        Do not misuse the service: no attempts to break or overload it, to reach other people&apos;s
        data, or to use it for unlawful advertising. We may suspend accounts that do.
      </p>
      <h2>5. Availability and changes</h2>
      <p>
        We work to keep Adloom available and your data safe, but the service is provided as is. We
        may change these terms; when the change matters we will tell you by email at least{' '}
        {POLICY_CHANGE_NOTICE_DAYS} days before it applies.
      </p>
      <h2>6. Ending your account</h2>
      <p>
        You can delete your account at any time from the Account page. How we handle your data is
        described in our{' '}
        <Anchor component={Link} to="/privacy">
          Privacy Policy
        </Anchor>
        .
      </p>
    </article>
  );
}
