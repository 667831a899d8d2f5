import {
  API,
  type TemplateKind,
  type TemplatesAnswer,
  type TemplateOfKind,
} from '@adloom/contract';
import { http } from '../../api/client.ts';

/** The save call of each template kind (spec section 7). */
export const TEMPLATE_SAVE_PATHS: Record<TemplateKind, string> = {
  campaignTemplates: API.app.saveCampaignTemplates,
  adTemplates: API.app.saveAdTemplates,
  rsaTemplates: API.app.saveRsaTemplates,
  performanceMaxTemplates: API.app.savePerformanceMaxTemplates,
  extensionTemplates: API.app.saveExtensionTemplates,
};

/** Saves a client's whole set of one kind; `revision` is the one loaded (omit to overwrite). */
export function saveTemplates<K extends TemplateKind>(
  kind: K,
  body: { name: string; templates: TemplateOfKind[K][]; revision?: number },
): Promise<TemplatesAnswer<K>> {
  return http.post<TemplatesAnswer<K>>(TEMPLATE_SAVE_PATHS[kind], body, { errors: 'caller' });
}
