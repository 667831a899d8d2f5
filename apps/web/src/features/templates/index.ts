// Template sets of the active client: state per kind, drafts and autosave (the builder shows them).
export {
  TemplateSetEditor,
  newTemplateOfKind,
  TEMPLATE_MESSAGES,
  type TemplateSetState,
} from './templateSetEditor.ts';
export { TemplateSets, TEMPLATE_AUTOSAVE_INTERVAL_MS } from './templateSets.ts';
