import { Anchor, Button, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { SUPPORT_EMAIL } from '../components/supportEmail.ts';
import { WaitingListForm } from '../features/waiting-list/WaitingListForm.tsx';
import { PlayerFrame } from '../features/media/PlayerFrame.tsx';
import { useMediaSettings } from '../features/media/mediaSettings.ts';
import {
  AdPreviewMock,
  ExportTableMock,
  IntroPoster,
  TemplateMock,
} from '../features/landing/LandingMedia.tsx';
import classes from './LandingPage.module.css';

const SELLING_POINTS = [
  {
    title: 'Speed and scale',
    body: 'Ten times the output: thousands of keywords, ads and extensions from one template and one feed, in seconds.',
  },
  {
    title: 'No fixed format',
    body: 'Your naming, your structure. Patterns with {root}, {mod} and {var1} fit any account layout you already use.',
  },
  {
    title: 'Integrations',
    body: 'Link feeds and lists to Google Sheets and keep your team working in the spreadsheet they know.',
  },
];

const FEATURES = [
  {
    title: 'Template-based campaign building',
    body: 'Connect a template to a product or data feed and generate hundreds or thousands of ads at once. Fallbacks take over whenever a row would push an ad past Google’s limits.',
    media: <TemplateMock />,
  },
  {
    title: 'Live previews of responsive search ads',
    body: 'See each ad the way a searcher would. Shuffle headline and description positions and browse the connected feed row by row before anything goes live.',
    media: <AdPreviewMock />,
  },
  {
    title: 'Export to the ad editor',
    body: 'Generate the whole table of ads, copy it, and paste it straight into Google Ads Editor. No reformatting, no lost columns.',
    media: <ExportTableMock />,
  },
];

/** The booking form's email field. */
const DEMO_EMAIL_ID = 'demo-email';

/**
 * /: the landing page for visitors. The intro video (LANDING_VIDEO_URL) and the demo booking
 * widget (DEMO_BOOKING_URL) are framed only when configured; otherwise the page draws its
 * poster and keeps the email form.
 */
export function LandingPage() {
  const media = useMediaSettings();

  // The booking form takes the focus as well: the keyboard goes where the page scrolled.
  function handleReady() {
    document.getElementById('book-demo')?.scrollIntoView({ behavior: 'smooth', block: 'start' });
    document.getElementById(DEMO_EMAIL_ID)?.focus({ preventScroll: true });
  }

  return (
    <div className={classes.page}>
      <section className={classes.hero}>
        <div className={classes.heroText}>
          <Text className={classes.eyebrow}>Bulk search campaigns for agencies</Text>
          <Title order={1} className={classes.tagline}>
            Professional search campaigns in seconds
          </Title>
          <Text size="lg" c="dimmed" className={classes.lede}>
            Adloom turns your data feeds and templates into keywords, responsive search ads,
            Performance Max asset groups and extensions, checked against every character limit as
            you type.
          </Text>
          <Text fw={600} mt="xl" mb="xs">
            Ready to build campaigns ten times faster?
          </Text>
          <div className={classes.heroActions}>
            <Button size="md" onClick={handleReady}>
              Yes, so ready!
            </Button>
            <Button size="md" variant="light" component={Link} to="/register">
              Create an account
            </Button>
            <Button size="md" variant="subtle" component={Link} to="/login">
              Log In
            </Button>
          </div>
        </div>
        <div className={classes.heroMedia}>
          {media?.landingVideoUrl ? (
            <PlayerFrame
              className={classes.introVideo}
              src={media.landingVideoUrl}
              title="Adloom intro video"
            />
          ) : (
            <IntroPoster />
          )}
        </div>
      </section>

      <section className={classes.points} aria-label="Why Adloom">
        {SELLING_POINTS.map((point) => (
          <div key={point.title} className={classes.tile}>
            <Title order={2} size="h4" mb={6}>
              {point.title}
            </Title>
            <Text size="sm" c="dimmed">
              {point.body}
            </Text>
          </div>
        ))}
      </section>

      {FEATURES.map((feature, index) => (
        <section
          key={feature.title}
          className={`${classes.feature} ${index % 2 === 1 ? classes.reverse : ''}`}
        >
          <div className={classes.featureText}>
            <Title order={2} className={classes.featureTitle}>
              {feature.title}
            </Title>
            <Text c="dimmed">{feature.body}</Text>
          </div>
          <div className={classes.featureMedia}>{feature.media}</div>
        </section>
      ))}

      <section id="book-demo" className={classes.booking} aria-labelledby="book-demo-heading">
        <Title order={2} id="book-demo-heading" className={classes.featureTitle}>
          Book a free demo
        </Title>
        {media?.demoBookingUrl ? (
          <>
            <Text c="dimmed" mb="lg">
              See Adloom build a live campaign from your own feed. Pick a time that suits you, or
              write to{' '}
              <Anchor href={`mailto:${SUPPORT_EMAIL}?subject=Adloom%20demo`}>
                {SUPPORT_EMAIL}
              </Anchor>
              .
            </Text>
            <PlayerFrame
              className={classes.bookingWidget}
              src={media.demoBookingUrl}
              title="Book a free demo: scheduling"
            />
          </>
        ) : (
          <>
            <Text c="dimmed" mb="lg">
              See Adloom build a live campaign from your own feed. Leave your email and we will send
              you a time that suits you, or write to{' '}
              <Anchor href={`mailto:${SUPPORT_EMAIL}?subject=Adloom%20demo`}>
                {SUPPORT_EMAIL}
              </Anchor>
              .
            </Text>
            <div className={classes.bookingForm}>
              <WaitingListForm inputId={DEMO_EMAIL_ID} />
            </div>
          </>
        )}
      </section>
    </div>
  );
}
