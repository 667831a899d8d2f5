import {
  TEMPLATE_SAVE_PATHS,
  type TemplateKind,
  type TemplatesAnswer,
  type TemplateOfKind,
} from '@adloom/contract';
import { http } from '../../api/client.ts';

/** Saves a client's whole set of one kind; `revision` is the one loaded (omit to overwrite). */
export function saveTemplates<K extends TemplateKind>(
  kind: K,
  body: { name: string; templates: TemplateOfKind[K][]; revision?: number },
): Promise<TemplatesAnswer<K>> {
  return http.post<TemplatesAnswer<K>>(TEMPLATE_SAVE_PATHS[kind], body, { errors: 'caller' });
}
