import { z } from 'zod';
import { AI_HELPER_TOOL } from './ai.ts';
import { MediaSettingsSchema } from './guides.ts';
import { XML_FEEDS_TOOL } from './xml.ts';

/** Minimum password length (spec: account delete needs at least 6 characters). */
export const PASSWORD_MIN_CHARS = 6;
/** Maximum password length accepted (argon2 input guard). */
export const PASSWORD_MAX_CHARS = 200;
/** Maximum email length. */
export const EMAIL_MAX_CHARS = 254;

/**
 * The spec's standard email pattern: local part, @, a domain with a dot and a 2+ letter
 * suffix, or an IP literal. The local part's dot-separated atoms exclude the dot, so the
 * pattern cannot backtrack exponentially (with dots inside the atoms, `a.a.a…a!` of 61
 * characters took over a minute: anonymous register and waiting-list calls could stall the server).
 */
export const EMAIL_PATTERN =
  /^[^\s@"<>()[\]\\,;:.]+(\.[^\s@"<>()[\]\\,;:.]+)*@((\[\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\])|(([a-zA-Z\-0-9]+\.)+[a-zA-Z]{2,}))$/;

const Email = z
  .string()
  .trim()
  .max(EMAIL_MAX_CHARS)
  .regex(EMAIL_PATTERN, 'Please enter a valid email');

/** One tutorial step and whether it is done. */
export const TutorialStepSchema = z.object({ name: z.string(), done: z.boolean() });
/** The user's tutorial state. */
export const TutorialSchema = z.object({
  disabled: z.boolean(),
  tutorialSteps: z.array(TutorialStepSchema),
});
/** The user's tutorial state. */
export type Tutorial = z.infer<typeof TutorialSchema>;

/** The user as the client sees it. */
export const PublicUserSchema = z.object({
  _id: z.string(),
  email: z.string(),
  role: z.string(),
  integrations: z.array(z.string()),
  tutorial: TutorialSchema,
  /**
   * Not in the spec: the tools this user's email opens (spec section 6): 'xml-feeds' for the
   * agency marker, 'ai-helper' for the AI helper's domain. Absent means none.
   */
  tools: z.array(z.string()).optional(),
  /**
   * Not in the spec: whether the address has been verified through the mailed link. Accounts
   * from before verification (and every changed address) start unverified.
   */
  emailVerified: z.boolean().optional(),
  /**
   * Not in the spec: the tools the address grants that wait for its verification (same names as
   * `tools`; a tool is in one list or the other). Absent means none waits.
   */
  pendingTools: z.array(z.string()).optional(),
});
/** The user as the client sees it. */
export type PublicUser = z.infer<typeof PublicUserSchema>;

/** Answer of login, register and reset: a signed token valid for `expiresIn` seconds. */
export const SessionSchema = z.object({
  token: z.string(),
  expiresIn: z.number(),
  user: PublicUserSchema,
});
/** Answer of login, register and reset. */
export type Session = z.infer<typeof SessionSchema>;

/** POST /api/users/register */
export const RegisterBodySchema = z.object({
  email: Email,
  password: z
    .string()
    .min(PASSWORD_MIN_CHARS, `Password must be at least ${PASSWORD_MIN_CHARS} characters`)
    .max(PASSWORD_MAX_CHARS),
  'password-confirm': z.string().max(PASSWORD_MAX_CHARS),
  recaptchaToken: z.string().max(10_000).optional().default(''),
});
/** POST /api/users/register */
export type RegisterBody = z.infer<typeof RegisterBodySchema>;

/** POST /api/users/login */
export const LoginBodySchema = z.object({
  email: z.string().trim().min(1, 'Email is required').max(EMAIL_MAX_CHARS),
  password: z.string().min(1, 'Password is required').max(PASSWORD_MAX_CHARS),
});
/** POST /api/users/login */
export type LoginBody = z.infer<typeof LoginBodySchema>;

/** POST /api/users/forgot */
export const ForgotBodySchema = z.object({
  email: z.string().trim().min(1, 'Email is required').max(EMAIL_MAX_CHARS),
});
/** POST /api/users/forgot */
export type ForgotBody = z.infer<typeof ForgotBodySchema>;

/** POST /api/users/reset/:token */
export const ResetBodySchema = z.object({
  password: z
    .string()
    .min(PASSWORD_MIN_CHARS, `Password must be at least ${PASSWORD_MIN_CHARS} characters`)
    .max(PASSWORD_MAX_CHARS),
  'password-confirm': z.string().max(PASSWORD_MAX_CHARS),
});
/** POST /api/users/reset/:token */
export type ResetBody = z.infer<typeof ResetBodySchema>;

/** `{ type, message }` answers of forgot and reset. */
export const TypeMessageSchema = z.object({ type: z.string(), message: z.string() });
/** `{ type, message }` answers of forgot and reset. */
export type TypeMessage = z.infer<typeof TypeMessageSchema>;

/** POST /api/users/delete */
export const DeleteAccountBodySchema = z.object({
  email: z.string().trim().max(EMAIL_MAX_CHARS).optional(),
  password: z
    .string()
    .min(PASSWORD_MIN_CHARS, `Password must be at least ${PASSWORD_MIN_CHARS} characters`)
    .max(PASSWORD_MAX_CHARS),
});
/** POST /api/users/delete */
export type DeleteAccountBody = z.infer<typeof DeleteAccountBodySchema>;

/** POST /api/users/change-email: the new address, confirmed with the password. */
export const ChangeEmailBodySchema = z.object({
  email: Email,
  password: z.string().min(1, 'Password is required').max(PASSWORD_MAX_CHARS),
});
/** POST /api/users/change-email */
export type ChangeEmailBody = z.infer<typeof ChangeEmailBodySchema>;

/** POST /api/users/send-verification takes no fields: the link goes to the signed-in address. */
export const SendVerificationBodySchema = z.object({});

/** Answer of change-email: the user with the new, unverified address, and what happens next. */
export const ChangeEmailAnswerSchema = z.object({
  type: z.literal('success'),
  message: z.string(),
  user: PublicUserSchema,
});
/** Answer of change-email. */
export type ChangeEmailAnswer = z.infer<typeof ChangeEmailAnswerSchema>;

/** The words of address verification, shared by the server's answers and the web app. */
export const VERIFY_MESSAGES = {
  /** 403 of a tool's route, and the web app's notice where the tool would be. */
  toolWaits: (toolName: string) => `Verify your email address to use ${toolName}.`,
  linkSent: (email: string) =>
    `We have sent a link to ${email}. Open it to verify your email address.`,
  alreadyVerified: 'Your email address is already verified.',
  verified: 'Your email address is verified.',
  invalidLink:
    'This verification link is invalid, has been used or has expired. Send the link again from your account.',
  emailChanged: (email: string) =>
    `Your email address is now ${email}. We have sent it a link to verify it.`,
} as const;

/** The name each address-granted tool goes by in the verification messages. */
export const TOOL_NAMES: Readonly<Record<string, string>> = {
  [AI_HELPER_TOOL]: 'the AI helper',
  [XML_FEEDS_TOOL]: 'the XML feed tools',
};

/**
 * POST /api/users/logout and /api/users/logout-everywhere take no fields: they act on the token
 * that signs the call, never on one named in the body (any fields are ignored).
 */
export const LogOutBodySchema = z.object({});
/** Answer of logout and logout-everywhere. */
export const LogOutAnswerSchema = z.object({ type: z.literal('success'), message: z.string() });
/** Answer of logout and logout-everywhere. */
export type LogOutAnswer = z.infer<typeof LogOutAnswerSchema>;

/** POST /api/users/toggle-tutorials */
export const ToggleTutorialsBodySchema = z.object({ shouldDisable: z.boolean() });
/** POST /api/users/set-tutorial-done-status */
export const SetTutorialDoneBodySchema = z.object({
  target: z.string().min(1).max(100),
  isDone: z.boolean(),
});
/** POST /api/users/reset-tutorials */
export const ResetTutorialsBodySchema = z.object({ message: z.string().max(1000).optional() });

/** POST /api/app/waiting-list (no auth) */
export const WaitingListBodySchema = z.object({ email: Email });

/** Feedback types the spec lists. */
export const FEEDBACK_TYPES = ['Issue', 'Idea', 'Other'] as const;
/** Minimum feedback length. */
export const FEEDBACK_MIN_CHARS = 10;
/** POST /api/feedback */
export const FeedbackBodySchema = z.object({
  type: z.enum(FEEDBACK_TYPES),
  message: z.string().trim().min(FEEDBACK_MIN_CHARS, 'Please provide valid feedback.').max(5000),
  user: z.unknown().optional(),
});

/** GET /api/health and GET /api/ready */
export const HealthSchema = z.object({
  ok: z.boolean(),
  database: z.enum(['embedded', 'postgres']),
});
/** GET /api/health and GET /api/ready */
export type Health = z.infer<typeof HealthSchema>;

/** The register bot check as the web app sees it: off, or the site key and the widget script to load. */
export const BotCheckSettingsSchema = z.discriminatedUnion('enabled', [
  z.object({ enabled: z.literal(false) }),
  z.object({
    enabled: z.literal(true),
    /** reCAPTCHA v3 site key passed to `grecaptcha.execute`. */
    siteKey: z.string(),
    /** The widget script (reCAPTCHA v3 api.js with `render=<siteKey>`). */
    scriptUrl: z.string(),
  }),
]);
/** The register bot check as the web app sees it. */
export type BotCheckSettings = z.infer<typeof BotCheckSettingsSchema>;

/**
 * Google Tag Manager as the web app sees it: off (GTM_ID not set), or the container id and the
 * script to load (`<scriptUrl>?id=<id>`) once the person accepts analytics.
 */
export const TagManagerSettingsSchema = z.discriminatedUnion('enabled', [
  z.object({ enabled: z.literal(false) }),
  z.object({ enabled: z.literal(true), id: z.string(), scriptUrl: z.string() }),
]);
/** Google Tag Manager as the web app sees it. */
export type TagManagerSettings = z.infer<typeof TagManagerSettingsSchema>;

/** GET /api/config (no token): public settings the web app needs before sign-in. */
export const PublicConfigSchema = z.object({
  botCheck: BotCheckSettingsSchema,
  media: MediaSettingsSchema,
  tagManager: TagManagerSettingsSchema,
});
/** GET /api/config */
export type PublicConfig = z.infer<typeof PublicConfigSchema>;

/** Answer of toggle-tutorials, set-tutorial-done-status and reset-tutorials: the new tutorial state. */
export const TutorialAnswerSchema = z.object({ tutorial: TutorialSchema });
/** Answer of the tutorial calls. */
export type TutorialAnswer = z.infer<typeof TutorialAnswerSchema>;

/** GET /api/users/me: the signed-in user. */
export const MeAnswerSchema = z.object({ user: PublicUserSchema });
/** GET /api/users/me */
export type MeAnswer = z.infer<typeof MeAnswerSchema>;

/** POST /api/users/reset/:token answers a session plus `{ type, message }`. */
export const ResetAnswerSchema = SessionSchema.extend({ type: z.string(), message: z.string() });
/** POST /api/users/reset/:token */
export type ResetAnswer = z.infer<typeof ResetAnswerSchema>;
