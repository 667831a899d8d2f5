import type { TemplateKind } from '@adloom/contract';

/** What changed since an output was generated. */
export type StaleReason = 'template' | 'rows';

/** What an origin reads of the workspace: the active feed and its rows (`BuilderWorkspace`). */
export interface RowsHolder {
  readonly editor: {
    readonly state: { get(): { activeFeed: string | null } };
    /** The feed's rows: `rowsChanges` counts their changes (data, loads, selection). */
    readonly store: { readonly rowsChanges: number; subscribe(listener: () => void): () => void };
  };
}

/** Which template and rows made a kept output, and when. */
export interface OutputOrigin {
  /** The template set it came from (to find the template again by name). */
  templateKind: TemplateKind;
  /** How the output names its template: 'campaign template', 'RSA template'... */
  templateLabel: string;
  templateName: string;
  /** The template's JSON when it was generated: compared with its JSON now. */
  templateJson: string;
  feedName: string | null;
  rowCount: number;
  /** The rows' key when it was generated (`rowsKeyOf`): compared with the key now. */
  rowsKey: string;
  generatedAt: Date;
}

/** Per template object its JSON, made once: a template object never changes (edits replace it). */
const jsonOfTemplate = new WeakMap<object, string>();

/** The JSON of a template (made once per template object). */
export function templateJson(template: object): string {
  let json = jsonOfTemplate.get(template);
  if (json === undefined) {
    json = JSON.stringify(template);
    jsonOfTemplate.set(template, json);
  }
  return json;
}

/**
 * The key of the rows a generation reads now: the active feed and its store's count of row
 * changes (data, loads, selection; not the filter). Another key means the rows may differ.
 */
export function rowsKeyOf(workspace: RowsHolder): string {
  const feed = workspace.editor.state.get().activeFeed ?? '';
  return `${feed}\u001f${workspace.editor.store.rowsChanges}`;
}

/** The origin of an output being generated now from `template` over the selected rows. */
export function originNow(
  workspace: RowsHolder,
  source: {
    templateKind: TemplateKind;
    templateLabel: string;
    template: { name: string };
    rowCount: number;
  },
): OutputOrigin {
  return {
    templateKind: source.templateKind,
    templateLabel: source.templateLabel,
    templateName: source.template.name,
    templateJson: templateJson(source.template),
    feedName: workspace.editor.state.get().activeFeed,
    rowCount: source.rowCount,
    rowsKey: rowsKeyOf(workspace),
    generatedAt: new Date(),
  };
}

/**
 * What changed since `origin`: its template (edited, renamed or deleted: no template of that
 * name holds the same JSON) and the rows (another key).
 */
export function staleReasons<T extends { name: string }>(
  origin: OutputOrigin,
  templates: readonly T[],
  rowsKey: string,
): StaleReason[] {
  const reasons: StaleReason[] = [];
  const template = templates.find((t) => t.name === origin.templateName);
  if (!template || templateJson(template) !== origin.templateJson) reasons.push('template');
  if (rowsKey !== origin.rowsKey) reasons.push('rows');
  return reasons;
}

const NUMBER_FORMAT = new Intl.NumberFormat('en-US');

/** The time of day as hh:mm (24 hours, local time). */
function formatTime(date: Date): string {
  return `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`;
}

/** "Made from campaign template ‘Shoes’ with 256 rows of ‘brands’ at 10:42". */
export function describeOrigin(origin: OutputOrigin, lead = 'Made from'): string {
  const rows = `${NUMBER_FORMAT.format(origin.rowCount)} ${origin.rowCount === 1 ? 'row' : 'rows'}`;
  const feed = origin.feedName === null ? '' : ` of ‘${origin.feedName}’`;
  return `${lead} ${origin.templateLabel} ‘${origin.templateName}’ with ${rows}${feed} at ${formatTime(origin.generatedAt)}`;
}

/** "Changed since: template, rows", or null when nothing changed. */
export function describeStale(reasons: readonly StaleReason[]): string | null {
  return reasons.length === 0 ? null : `Changed since: ${reasons.join(', ')}`;
}
