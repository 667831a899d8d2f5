/** The `adloom` command line: options, help and exit codes. Generation itself is in generate.ts. */
import { parseArgs } from 'node:util';
import {
  DEFAULT_CLIENT_LABEL,
  DROPPED_POLICIES,
  type DroppedPolicy,
  FEED_CELL_MAX_CHARS,
  FEED_COLUMN_DEFINITIONS,
  FEED_TEXT_COLUMNS,
  PLACEHOLDERS,
} from '@adloom/engine';
import { InputError, OutputClosed } from './files.ts';
import { OUTPUT_KINDS, runGenerate, type GenerateOptions, type OutputKind } from './generate.ts';
import { clientLabelProblem } from './label.ts';
import {
  OUTPUT_FORMATS,
  checkMicrosoftLocationFiles,
  writeMicrosoftFiles,
  type MicrosoftLocationFiles,
} from './microsoft.ts';
import { MICROSOFT_PLAN_NEEDS_ACCOUNT, runMicrosoftPlan } from './microsoftPlan.ts';
import { runPlan } from './plan.ts';
import { Progress } from './progress.ts';

/** Exit codes. */
export const EXIT_OK = 0;
/** Bad input: missing or unreadable file, invalid JSON, unknown field or match type, unusable feed. */
export const EXIT_INPUT = 1;
/** Wrong usage: unknown command or option, missing required option. */
export const EXIT_USAGE = 2;

/** Where the command writes its text. */
export interface CliIo {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  /** True when stderr is a terminal: a progress line is then shown unless asked otherwise. */
  stderrIsTerminal?: boolean;
  /** The compiled command, to run the ads on a thread of their own (see adsThread.ts). */
  adsThreadScript?: URL;
}

/** `items` joined by ', ' in lines of at most `width` characters, each after `indent`. */
function wrapList(items: readonly string[], indent: string, width = 98): string {
  const lines: string[] = [];
  let line = '';
  for (const [i, item] of items.entries()) {
    const piece = i < items.length - 1 ? `${item},` : item;
    if (line !== '' && indent.length + line.length + 1 + piece.length > width) {
      lines.push(line);
      line = piece;
    } else line = line === '' ? piece : `${line} ${piece}`;
  }
  lines.push(line);
  return lines.map((l) => indent + l).join('\n');
}

const OPTION_INDENT = ' '.repeat(21);
const FEED_HEADER_NAMES = wrapList(
  FEED_COLUMN_DEFINITIONS.map((d) => `${d.key} (or ${d.label})`),
  OPTION_INDENT,
);
const TEXT_COLUMN_NAMES = FEED_TEXT_COLUMNS.join(', ');
const PLACEHOLDER_NAMES = PLACEHOLDERS.filter((p) => p !== 'mt')
  .map((p) => `{${p}}`)
  .join(' ');

export const HELP = `adloom: build Google Ads campaigns in bulk from a data feed and templates.

Usage:
  npx adloom generate --feed FEED.csv --campaign CAMPAIGN.json [--rsa RSA.json]
                      [--pmax PMAX.json] [--extension EXT.json ...] [--legacy-ad AD.json]
                      (--out DIR | --stdout) [--only KIND,...] [--progress]
                      [--today YYYYMMDD] [--label NAME] [--format FORMAT]
                      [--microsoft-locations FILE --google-geo FILE]
  npx adloom plan     (the same inputs) (--previous DIR | --account FILE) --out DIR
                      [--dropped pause|remove|keep] [--label NAME] [--format FORMAT]
  npx adloom --help

generate reads every row of the feed (all rows count as selected), runs the templates over
them and writes one Google Ads Editor CSV per output kind into DIR
(Editor: Account > Import > From file), and the build record adloom-build.json.

plan makes the same build and compares it with the last one (the adloom-build.json of an
earlier generate or plan output folder) or with the live account (a Google Ads Editor export
of it), and writes into DIR only the changes: the Editor files of generate, holding only new,
changed, paused, resumed and removed items with their status columns set, the plan
adloom-plan.csv, the collisions with hand-made items, and the record of the build after the
changes (the next plan's --previous). Import the Editor files, then run the next plan against
this folder. A plan against its own folder with the same inputs plans nothing.

Options:
  --feed FILE        The data feed, CSV with a header row. Columns are matched by header name,
                     in any case:
${FEED_HEADER_NAMES}.
                     Other columns are ignored. UTF-8 (with or without BOM),
                     UTF-16 with BOM (Excel's "Unicode text", Editor's export), or
                     windows-1252 (what Excel saves; € – — “ ” ™ kept). Cells separated by
                     commas, semicolons (Excel in European locales) or tabs, as the header
                     shows.
                     Cells are trimmed; ${TEXT_COLUMN_NAMES} are cut to
                     ${FEED_CELL_MAX_CHARS} characters (reported); a final URL is never cut.
  --campaign FILE    Campaign template (JSON): name, type ("search" or "performance"), const,
                     campaign, adGroup, assetGroup, keywords [{keyword, matchType, selected}],
                     settings {budget {value, selected}, location {value, selected},
                     isLocationCampaign, optionalSettings [{name, value, selected}],
                     dropBlockingNegatives (true: a template negative that blocks its own
                     group's keyword is not written; default false: the keyword is reported),
                     keepKeywordInFirstAdGroup (true: a keyword and match type already in an
                     ad group of its campaign is not written to later ad groups; default
                     false: it is written there and reported)}.
                     Match types: Broad, Phrase, Exact, Negative Broad, Negative Phrase,
                     Negative Exact (negatives of a template without positive keywords are
                     campaign negatives: "Campaign Negative Phrase" and so on). A keyword
                     written [kw] or "kw" is read as the match type it states (under Broad:
                     Exact or Phrase; under the same type the notation goes); one that
                     contradicts its match type ([kw] under Phrase) is left out (reported). Every
                     keyword line is generated; "selected" is only the web table's selection.
  --rsa FILE         Responsive search ad template (JSON): name, templates (fallbacks), each
                     {headlines [{text, pos}], descriptions [{text, pos}], paths [2], labels}.
                     Plain-string headlines and descriptions are accepted (pos 0 = unpinned).
                     Needs a search campaign template.
  --pmax FILE        Performance Max template (JSON): name, templates, each {headlines,
                     longHeadlines, descriptions, paths, labels, businessName, callToAction}.
                     Needs a performance campaign template.
  --extension FILE   Extension template (JSON), repeatable: name, extensionType ("Callout",
                     "Sitelink" or "Structured Snippet"), templates: [{field title: value}],
                     attachTo: "auto" (default: the level its placeholders vary at),
                     "account", "campaign" or "adGroup" (the campaign template's).
  --legacy-ad FILE   Legacy expanded text ad template (JSON): name, templates: versions, each a
                     list of fallbacks {h1, h2, h3, dl1, dl2, p1, p2, label}. Google stopped
                     accepting expanded text ads in June 2022: each version is converted into a
                     responsive search ad template, as the web app's "Convert to RSA template"
                     does (h1-h3 the headlines, dl1-dl2 the descriptions, p1-p2 the paths, the
                     label split at ";"), and its ads join responsive-search-ads.csv (reported).
                     Needs a search campaign template.
  --out DIR          Output folder (created if missing). Files of this run replace files of
                     the same name; nothing is written when any input is bad.
  --only KIND,...    Write only these outputs: ${Object.keys(OUTPUT_KINDS).join(', ')}
                     (default: every one that applies).
  --stdout           Write the one output of --only to standard output (no BOM) instead of
                     a folder; the summary then goes to standard error.
  --progress         Show rows done, lines written and the rate on standard error (the
                     default when standard error is a terminal).
  --format FORMAT    ${OUTPUT_FORMATS.join(' or ')} (default ${OUTPUT_FORMATS[0]}).
                     microsoft-advertising also writes microsoft-advertising.csv (Microsoft
                     Advertising's bulk file, format version 6.0: Editor or the web's bulk
                     upload) and microsoft-advertising-report.csv (every item that could not go
                     to Microsoft or went changed, with the reason), made from the Editor files
                     beside them. Google location IDs are not Microsoft's: without
                     --microsoft-locations they are reported, and a campaign left with no
                     location is written paused. Needs --out, not --only. With plan it needs
                     --account (a Microsoft bulk download of the account) and writes
                     microsoft-advertising.csv with only the changes (see --account).
  --microsoft-locations FILE
                     (with --format microsoft-advertising and --google-geo) Microsoft's
                     geographical locations file (GeoLocations.csv, format version 2.0, from the
                     Microsoft Advertising Developer Portal or GetGeoLocationsFileUrl; the
                     English one): Location Id, Bing Display Name, Location Type, Status. Each
                     Google location is written as the Campaign Location Criterion of the one
                     Active Microsoft location with its name and type: the Bing Display Name's
                     parts and Google's canonical name's parts, in order, compared without case,
                     accents or punctuation; Country, City, County, Postal Code (PostalCode),
                     DMA Region (MetroArea), State, Province, Region and other first-level
                     divisions (State). A location with no such match, or with several, is
                     not guessed: it is reported with the reason. The summary says how many
                     were mapped.
  --google-geo FILE  (with --microsoft-locations) Google's geo targets file
                     (geotargets-YYYY-MM-DD.csv, unzipped): the name and type of each criteria ID.
  --today YYYYMMDD   Date for the label helpers yyyymmdd-v1, -v2, -v3 (default: today).
  --label NAME       The client label (default ${DEFAULT_CLIENT_LABEL}), added to the Labels column of campaigns,
                     ad groups, keywords and responsive search ads: it marks what Adloom made,
                     so a plan against the account never touches items without it. Not empty,
                     no ";".
  --previous DIR     (plan) An earlier generate or plan output folder: its adloom-build.json.
  --account FILE     (plan) A Google Ads Editor export of the account (Account > Export >
                     Export whole account, or one file per type; UTF-16 tab-separated as
                     Editor writes it, or UTF-8 CSV). Items without the label are never
                     paused, removed or changed; a new item whose name one of them holds is a
                     collision: reported, not written.
                     With --format microsoft-advertising: a bulk download of the Microsoft
                     Advertising account instead (Bulk File Schema 6.0, UTF-8 CSV or
                     tab-separated, with its campaigns, ad groups, keywords, negatives, ads,
                     extensions with their associations, labels and label associations). It is
                     required: an update, pause or removal in a Microsoft bulk file names the
                     item by Microsoft's Id, which only the download holds. The client label is
                     Microsoft's Label record and its Campaign, Ad Group, Keyword and
                     Responsive Search Ad Label associations.
  --dropped POLICY   (plan) What happens to items the feed no longer makes: pause (default,
                     they keep their history and resume when the row returns), remove, or keep
                     (left as they are).
  -h, --help         Show this help.

Placeholders in patterns and ad text: ${PLACEHOLDER_NAMES},
and {mt} (the match type) in ad group names, in any case. Google's own {KeyWord:default},
{CUSTOMIZER.name:default}, {LOCATION(City):default} and {COUNTDOWN(...)} pass through and are
counted as their default text; an insertion without default text (such as {KeyWord}) is
reported once per template text and counted as 10 characters.

Ads: each row gets the first fallback valid for it: every placeholder with a value ({const}
too), every text within Google's limits and editorial rules (no "!" in headlines, no emoji,
repeated punctuation or shouting capitals), no text repeated within the ad (ignoring case),
pins that leave every position fillable, and as many texts as Google needs (responsive search
ad: 3-15 headlines and 2-4 descriptions; Performance Max: 3-15 headlines with one of 15
characters or fewer, 1-5 long headlines, 2-5 descriptions with one of 60 or fewer, and a
business name). Rows without a valid fallback are reported with the first fallback's reason,
never silently dropped. Ad and asset texts are written in NFC; the editorial rules read
full-width and other compatibility forms as their plain characters (a full-width "！" is a "!").
Performance Max texts take no keyword insertion (it has no keywords): such a fallback is not
used (reported). Labels containing ";" are not written (reported).

Final URLs (ads, sitelinks, asset groups' ads) follow one rule: an http:// or https:// address
a browser parses, of a public host name with a dot (no user:password@, no localhost, no IP
address), with no space or invisible character, of at most 2048 characters. Otherwise the item
is not written and the row is reported.

Names of campaigns, ad groups and asset groups lose invisible characters (zero-width space,
bidi marks, soft hyphen; a zero-width joiner inside an emoji stays), reported, so "Ni\u200bke"
and "Nike" are one campaign. Location IDs (the row's root in a location campaign, or the
template's location) must be Google criteria IDs, digits without a leading zero: "2826.0" is
written 2826 (reported); "1.00689E+06", "abc" or "00123" is reported and not written, and a row
left with no valid location is not written, so no campaign targets every country. Each row's
location is written as its campaign's own row, each once. Assets: at most 20 sitelinks, 20
callouts and 20 structured snippets in one place (the account, a campaign, an ad group), a
sitelink link text or callout text once in a place (ignoring case and Unicode form); what is
left out is reported once per place.

Keywords and negatives are lowercased, in NFC, with every kind of space as one space (a word
break). Only letters, digits and # $ & _ - " [ ] ' + . / : stay: curly quotes and dashes become
their plain forms, zero-width characters and soft hyphens are removed, anything else becomes a
space; match type notation is stripped (a leading -, Google's negative notation, and a +
starting a word, the retired broad match modifier): the match type is its own column. Each
change is reported as cleaned; a keyword still empty, over 80 characters or over 10 words is
skipped and reported. Rows merged into an earlier row's group, names that differ only by case
or Unicode form (one group, the first spelling), keywords blocked by their own group's negatives
and names cleaned or too long (255 characters or more) are reported too.

Files written (only the kinds that apply):
  campaigns.csv                Campaign, Campaign Type, Budget, optional settings; then one row
                               per location: Campaign, Location ID
  ad-groups.csv                Campaign, Ad Group                      (search)
  keywords.csv                 Campaign, Ad Group, Keyword, Criterion Type
  negatives.csv                Campaign, Ad Group, Keyword, Criterion Type
  responsive-search-ads.csv    Campaign, Ad Group, Ad type, Headline 1..15, positions,
                               Description 1..4, positions, Path 1, Path 2, Final URL, Labels
  asset-groups.csv             Campaign, Asset Group, Campaign Type    (performance), or with
                               --pmax: Headline n, Long headline n, Description n, Business
                               name, Call to action, Path 1, Path 2, Final URL
  callouts.csv, sitelinks.csv, structured-snippets.csv
                               Campaign (<Account-level> for the account), Ad Group (blank at
                               campaign level), then the asset's fields
  performance-max-images-needed.txt
                               with asset groups: they need images before they can run
  adloom-report.csv            every skipped, cleaned, merged or warned item: Kind, Output, Line,
                               Code, Message (made for a spreadsheet: a cell starting with = + - @
                               gets a leading apostrophe)
  adloom-build.json            the build record: date, feed file name, template names, label
                               and every item (identity, status, a hash of its contents, feed
                               line). Not written with --stdout or --only (a partial build would
                               make the next plan pause the rest).

plan writes (only the Editor files that have changes; files of these names left in DIR by an
earlier run are removed, so nothing stale is imported):
  campaigns.csv ... sitelinks.csv
                               the changed items only, with Campaign Status, Ad Group Status or
                               Status: Enabled for new and resumed items, Paused or Removed for
                               dropped ones, the item's own for changed ones
  adloom-plan.csv              Action (add, update, pause, enable, remove), Kind, Campaign,
                               Ad Group, Item, Reason, Feed line
  adloom-collisions.csv        with --account, new items not written because an item without
                               the label holds their name: Kind, Campaign, Ad Group, Item,
                               Reason, Feed line
  adloom-build.json            the record after the changes (the next plan's --previous)
  adloom-report.csv            as generate's
and prints the counts per kind: new, changed, paused, resumed, removed, unchanged.

plan --format microsoft-advertising --account BULK.csv writes instead of the Editor files and
the record:
  microsoft-advertising.csv    only the changes, to upload (Microsoft Advertising Editor, or the
                               web's bulk upload): new items as generate writes them, each
                               campaign, ad group, keyword and ad with the label (a Label record
                               when the account has none, and its label association records),
                               under the account's Ids where the parent exists; changed items
                               (a budget, an ad's texts, paths or final URL), paused, resumed
                               and removed ones as records with their Id, Parent Id and Status
                               (Active, Paused or Deleted) and only the columns the change sets.
                               Negatives and extension associations have no paused state: a
                               dropped negative is deleted; a dropped association is deleted with
                               --dropped remove, otherwise reported
  microsoft-advertising-report.csv
                               changes that could not be planned for Microsoft (a changed
                               sitelink: one library item serves every place) and new items
                               Microsoft cannot take, with the reason
  adloom-plan.csv, adloom-collisions.csv, adloom-report.csv
                               as above. Download the account again after the upload: that
                               download is the next plan's --account.

Feed cells and template texts that start with = + - @ are reported (a spreadsheet would run them
as formulas); the Google Ads Editor files keep them as typed.

A summary is printed: rows read, items generated per kind, items skipped, cleaned or warned
about and why ("line N" is the line of the feed file where that row starts, the header being
line 1, counting blank lines and line breaks inside quoted cells; "template" marks a problem of
a template text, listed first).

Exit codes:
  0  written (with --stdout, also when the reader closes the pipe early, as "| head" does:
     the run stops there)
  1  bad input: missing file, invalid JSON (file, line, column), unknown field or match type
     (named), a template that does not fit the campaign type, a feed with no recognised column,
     a --microsoft-locations or --google-geo file without the columns it needs;
     plan: a --previous folder without a readable adloom-build.json, an --account file that is
     not an Editor export (with --format microsoft-advertising: not a bulk download)
  2  wrong usage: unknown command or option, missing --feed, --campaign or --out, a bad --label,
     one of --microsoft-locations and --google-geo without the other or without
     --format microsoft-advertising;
     plan: neither or both of --previous and --account, --format microsoft-advertising
     without --account, --dropped other than pause, remove or keep, --stdout or --only
`;

function usageError(io: CliIo, message: string): number {
  io.stderr(`adloom: ${message}\nRun "npx adloom --help" for usage.\n`);
  return EXIT_USAGE;
}

/** Runs the command with its arguments; returns the exit code. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        feed: { type: 'string' },
        campaign: { type: 'string' },
        rsa: { type: 'string' },
        pmax: { type: 'string' },
        extension: { type: 'string', multiple: true },
        'legacy-ad': { type: 'string' },
        out: { type: 'string' },
        only: { type: 'string' },
        stdout: { type: 'boolean' },
        progress: { type: 'boolean' },
        today: { type: 'string' },
        label: { type: 'string' },
        previous: { type: 'string' },
        account: { type: 'string' },
        dropped: { type: 'string' },
        format: { type: 'string' },
        'microsoft-locations': { type: 'string' },
        'google-geo': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (e) {
    return usageError(
      io,
      (e as Error).message.replace(/\. To specify a positional argument.*$/s, ''),
    );
  }
  const { values, positionals } = parsed;
  if (values.help || positionals.length === 0 || positionals[0] === 'help') {
    io.stdout(HELP);
    return positionals.length === 0 && !values.help ? EXIT_USAGE : EXIT_OK;
  }
  const command = positionals[0];
  if (command !== 'generate' && command !== 'plan')
    return usageError(io, `unknown command "${command}" (the commands are "generate" and "plan")`);
  if (positionals.length > 1) return usageError(io, `unexpected argument "${positionals[1]}"`);
  const isPlan = command === 'plan';
  const missing = (
    ['feed', 'campaign', ...(values.stdout && !isPlan ? [] : ['out' as const])] as const
  ).filter((k) => !values[k]);
  if (missing.length) return usageError(io, `missing ${missing.map((m) => `--${m}`).join(', ')}`);
  if (!isPlan) {
    const planOnly = (['previous', 'account', 'dropped'] as const).find(
      (k) => values[k] !== undefined,
    );
    if (planOnly) return usageError(io, `--${planOnly} is an option of "plan", not "generate"`);
  } else {
    if (values.stdout) return usageError(io, 'plan writes into --out, not to --stdout');
    if (values.only !== undefined)
      return usageError(io, 'plan compares every output: --only is for generate');
    if (values.format === 'microsoft-advertising' && values.account === undefined)
      return usageError(io, MICROSOFT_PLAN_NEEDS_ACCOUNT);
    if ((values.previous === undefined) === (values.account === undefined))
      return usageError(
        io,
        'plan needs one baseline: --previous DIR (an earlier output folder) or --account FILE (an Editor export)',
      );
    if (
      values.dropped !== undefined &&
      !(DROPPED_POLICIES as readonly string[]).includes(values.dropped)
    )
      return usageError(
        io,
        `--dropped must be ${DROPPED_POLICIES.join(', ')}, got "${values.dropped}"`,
      );
  }
  const format = values.format ?? OUTPUT_FORMATS[0]!;
  if (!OUTPUT_FORMATS.includes(format))
    return usageError(io, `--format must be ${OUTPUT_FORMATS.join(' or ')}, got "${format}"`);
  const microsoft = format !== OUTPUT_FORMATS[0];
  if (microsoft && (values.stdout || values.only !== undefined))
    return usageError(
      io,
      '--format microsoft-advertising writes whole builds: no --stdout or --only',
    );
  const msLocations = values['microsoft-locations'];
  const googleGeo = values['google-geo'];
  if ((msLocations !== undefined || googleGeo !== undefined) && !microsoft)
    return usageError(
      io,
      `--${msLocations !== undefined ? 'microsoft-locations' : 'google-geo'} is for --format microsoft-advertising`,
    );
  if ((msLocations === undefined) !== (googleGeo === undefined))
    return usageError(
      io,
      msLocations === undefined
        ? '--google-geo needs --microsoft-locations (the Microsoft file its locations are matched in)'
        : "--microsoft-locations needs --google-geo (Google's geo targets file: the names of the build's location IDs)",
    );
  const label = values.label ?? DEFAULT_CLIENT_LABEL;
  const labelProblem = clientLabelProblem(label);
  if (labelProblem) return usageError(io, labelProblem);
  let only: Set<OutputKind> | undefined;
  if (values.only !== undefined) {
    const kinds = values.only.split(',').map((k) => k.trim());
    const unknown = kinds.find((k) => !Object.hasOwn(OUTPUT_KINDS, k));
    if (unknown !== undefined)
      return usageError(
        io,
        `--only: unknown output "${unknown}" (outputs: ${Object.keys(OUTPUT_KINDS).join(', ')})`,
      );
    only = new Set(kinds as OutputKind[]);
  }
  if (values.stdout) {
    if (values.out !== undefined)
      return usageError(io, '--stdout and --out cannot be used together');
    if (only?.size !== 1) return usageError(io, '--stdout needs --only with one output');
  }
  let today = values.today;
  if (today !== undefined && !isValidDateDigits(today))
    return usageError(io, `--today must be a date as YYYYMMDD, got "${today}"`);
  today ??= formatLocalToday();
  const options: GenerateOptions = {
    label: label.trim(),
    feed: values.feed as string,
    campaign: values.campaign as string,
    rsa: values.rsa,
    pmax: values.pmax,
    extensions: values.extension ?? [],
    legacyAd: values['legacy-ad'],
    out: values.out,
    today,
    only,
    progress: values.progress || io.stderrIsTerminal ? new Progress(io.stderr) : undefined,
    adsThreadScript: io.adsThreadScript,
  };
  try {
    // The location files are checked first: a bad one writes nothing.
    const locationFiles: MicrosoftLocationFiles | undefined =
      msLocations !== undefined && googleGeo !== undefined
        ? { microsoft: msLocations, google: googleGeo }
        : undefined;
    if (locationFiles) checkMicrosoftLocationFiles(locationFiles);
    const planOptions = {
      ...options,
      out: values.out as string,
      previous: values.previous,
      account: values.account,
      dropped: (values.dropped ?? 'pause') as DroppedPolicy,
    };
    const summary = isPlan
      ? microsoft
        ? await runMicrosoftPlan({
            ...planOptions,
            account: values.account as string,
            ...(locationFiles ? { locations: locationFiles } : {}),
          })
        : await runPlan(planOptions)
      : await runGenerate({
          ...options,
          ...(values.out !== undefined && !only
            ? { record: { created: new Date().toISOString() } }
            : {}),
        });
    const microsoftSummary =
      microsoft && !isPlan ? writeMicrosoftFiles(values.out as string, label, locationFiles) : '';
    (values.stdout ? io.stderr : io.stdout)(summary + microsoftSummary);
    return EXIT_OK;
  } catch (e) {
    if (e instanceof OutputClosed) return EXIT_OK;
    if (e instanceof InputError) {
      io.stderr(`adloom: ${e.message}\nNothing was written.\n`);
      return EXIT_INPUT;
    }
    io.stderr(
      `adloom: unexpected error: ${(e as Error).stack ?? String(e)}\nNothing was written.\n`,
    );
    return EXIT_INPUT;
  }
}

/** True for a real calendar date written YYYYMMDD. */
export function isValidDateDigits(s: string): boolean {
  if (!/^\d{8}$/.test(s)) return false;
  const y = Number(s.slice(0, 4));
  const m = Number(s.slice(4, 6));
  const d = Number(s.slice(6, 8));
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

function formatLocalToday(): string {
  const now = new Date();
  return `${now.getFullYear()}${String(now.getMonth() + 1).padStart(2, '0')}${String(now.getDate()).padStart(2, '0')}`;
}
