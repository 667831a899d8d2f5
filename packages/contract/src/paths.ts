import type { TemplateKind } from './workspace.ts';

/** API paths, exactly as spec section 7 names them. */
export const API = {
  health: '/api/health',
  /** Not in the spec: readiness, 503 while the database is unreachable or the server stops. */
  ready: '/api/ready',
  /** Not in the spec: public (no token) settings the web app needs before sign-in, e.g. the bot check. */
  config: '/api/config',
  users: {
    register: '/api/users/register',
    login: '/api/users/login',
    forgot: '/api/users/forgot',
    /** GET checks, POST sets; append the URL-encoded token. */
    reset: '/api/users/reset/',
    delete: '/api/users/delete',
    toggleTutorials: '/api/users/toggle-tutorials',
    setTutorialDoneStatus: '/api/users/set-tutorial-done-status',
    resetTutorials: '/api/users/reset-tutorials',
    /** Not in the spec: the signed-in user's own record, used to refresh integrations. */
    me: '/api/users/me',
    /** Not in the spec: "Download my data", a zip of everything the person keeps. */
    myData: '/api/users/me/data',
    /** Not in the spec: POST ends the calling token on the server (Log Out). */
    logout: '/api/users/logout',
    /** Not in the spec: POST ends every token of the signed-in user, this one included. */
    logoutEverywhere: '/api/users/logout-everywhere',
    /**
     * Not in the spec: POST with the mailed token appended (URL-encoded, no sign-in needed)
     * verifies the address the link was sent to.
     */
    verifyEmail: '/api/users/verify-email/',
    /** Not in the spec: POST mails the signed-in user a new verification link (rate limited). */
    sendVerification: '/api/users/send-verification',
    /** Not in the spec: POST {email, password} changes the address; it waits for a new verification. */
    changeEmail: '/api/users/change-email',
  },
  app: {
    waitingList: '/api/app/waiting-list',
    /** GET, POST, DELETE; append the URL-encoded client name for the bundle. */
    clients: '/api/app/clients',
    lists: '/api/app/lists',
    feeds: '/api/app/feeds',
    saveCampaignTemplates: '/api/app/save-campaign-templates',
    saveAdTemplates: '/api/app/save-ad-templates',
    saveRsaTemplates: '/api/app/save-rsa-templates',
    savePerformanceMaxTemplates: '/api/app/save-performance-max-templates',
    saveExtensionTemplates: '/api/app/save-extension-templates',
    fetchXml: '/api/app/fetch-xml',
  },
  feedback: '/api/feedback',
  geo: '/api/geo',
  /** Not in the spec: POST the live count and first matches of a geo search. */
  geoSearch: '/api/geo/search',
  /** Not in the spec: GET whether geo targets are loaded, and which release. */
  geoStatus: '/api/geo/status',
  /** Not in the spec: POST Google's targets of at most GEO_LOOKUP_MAX criteria IDs. */
  geoTargets: '/api/geo/targets',
  google: {
    uploadList: '/api/google/upload-list',
    downloadList: '/api/google/download-list',
    uploadData: '/api/google/upload-data',
    downloadData: '/api/google/download-data',
    consent: '/api/google/consent',
    accessToken: '/api/google/access-token',
    unlinkGoogleSheets: '/api/google/unlink-google-sheets',
    /** Not in the spec: GET whether the server can link Google and this user's link status. */
    status: '/api/google/status',
    /** Not in the spec: GET rows moved so far by a sheet call; append the progress id. */
    progress: '/api/google/progress/',
  },
  ai: { suggestions: '/api/ai/suggestions' },
  /**
   * Not in the spec (issue 38, an operator's view): read-only calls for the operators named by
   * ADMIN_EMAILS (verified addresses); everyone else signed in gets 404, as for no route at all.
   */
  admin: {
    /** GET feedback entries, newest first: `?q=` searches, `?limit=&cursor=` pages. */
    feedback: '/api/admin/feedback',
    /** GET every feedback entry matching `?q=` as CSV (streamed). */
    feedbackCsv: '/api/admin/feedback/csv',
    /** GET waiting-list entries, newest first: `?q=` searches, `?limit=&cursor=` pages. */
    waitingList: '/api/admin/waiting-list',
    /** GET every waiting-list entry matching `?q=` as CSV (streamed). */
    waitingListCsv: '/api/admin/waiting-list/csv',
    /** GET counts of users, clients, feeds and lists. */
    counts: '/api/admin/counts',
    /** GET what each feature has configured (never a secret). */
    settings: '/api/admin/settings',
  },
  /**
   * Not in the spec (issue 35): a client's build history and loop settings, by the client's id
   * (the bundle's `id`). Route patterns: use the path functions below to call them.
   */
  clients: {
    /** GET the list (newest first), POST a new build (the gzip'd record as the body). */
    builds: '/api/clients/:id/builds',
    /** GET the newest build's record (gzip bytes). */
    latestBuild: '/api/clients/:id/builds/latest',
    /** GET one build's record (gzip bytes). */
    buildRecord: '/api/clients/:id/builds/:buildId/record',
    /** GET and PATCH the client's loop settings. */
    loopSettings: '/api/clients/:id/loop-settings',
  },
} as const;

/** The save call of each template kind. */
export const TEMPLATE_SAVE_PATHS: Readonly<Record<TemplateKind, string>> = {
  campaignTemplates: API.app.saveCampaignTemplates,
  adTemplates: API.app.saveAdTemplates,
  rsaTemplates: API.app.saveRsaTemplates,
  performanceMaxTemplates: API.app.savePerformanceMaxTemplates,
  extensionTemplates: API.app.saveExtensionTemplates,
};

/** Path of one client's bundle; any characters a person types survive. */
export function clientPath(name: string): string {
  return `${API.app.clients}/${encodeURIComponent(name)}`;
}

const clientIdPath = (pattern: string, clientId: string) =>
  pattern.replace(':id', encodeURIComponent(clientId));

/** Path of a client's builds (GET the list, POST a build). */
export function buildsPath(clientId: string): string {
  return clientIdPath(API.clients.builds, clientId);
}

/** Path of a client's newest build record. */
export function latestBuildPath(clientId: string): string {
  return clientIdPath(API.clients.latestBuild, clientId);
}

/** Path of one build's record. */
export function buildRecordPath(clientId: string, buildId: string): string {
  return clientIdPath(API.clients.buildRecord, clientId).replace(
    ':buildId',
    encodeURIComponent(buildId),
  );
}

/** Path of a client's loop settings. */
export function loopSettingsPath(clientId: string): string {
  return clientIdPath(API.clients.loopSettings, clientId);
}

/** Path of the password-reset check or set for a token. */
export function resetPath(token: string): string {
  return `${API.users.reset}${encodeURIComponent(token)}`;
}

/** POST path that verifies an address with the mailed `token`. */
export function verifyEmailPath(token: string): string {
  return `${API.users.verifyEmail}${encodeURIComponent(token)}`;
}
