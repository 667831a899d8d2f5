// Template sets of the active client: state per kind, toolbar, dialogs, drafts and autosave.
export { useTemplateSet, type TemplateSetView } from './useTemplateSet.ts';
export { TemplateToolbar } from './TemplateToolbar.tsx';
export {
  TemplateConflictDialog,
  TemplateDraftOfferDialog,
  WorkspaceSaveStatus,
  useKeepUnsavedTemplates,
  TEMPLATE_KIND_NAMES,
} from './TemplateDialogs.tsx';
export {
  TemplateSetEditor,
  newTemplateOfKind,
  TEMPLATE_MESSAGES,
  type TemplateSetState,
} from './templateSetEditor.ts';
export { TemplateSets } from './templateSets.ts';
