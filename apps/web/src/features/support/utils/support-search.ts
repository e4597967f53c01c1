import {
  SUPPORT_CATEGORIES,
  SUPPORT_ROBOT_MODEL_MAX,
  type SupportCategory,
  type SupportRequestFields,
} from '@portal/contract';
import { z } from 'zod';

/** "Get Help" and "Get in touch" link here with ?topic=robot_not_listed&model=...; anything invalid is dropped. */
export const supportSearchSchema = z.object({
  topic: z.enum(SUPPORT_CATEGORIES).optional().catch(undefined),
  model: z.string().trim().min(1).max(SUPPORT_ROBOT_MODEL_MAX).optional().catch(undefined),
});
export type SupportSearch = z.output<typeof supportSearchSchema>;

/** The form's starting values for a link: the topic picks the category, a model fills the subject. */
export function supportFormDefaults(search: SupportSearch): SupportRequestFields & { robot_model: string } {
  const category: SupportCategory = search.topic ?? 'general';
  const model = search.model ?? '';
  return {
    category,
    subject: category === 'robot_not_listed' && model ? `Robot not listed: ${model}` : '',
    message: '',
    robot_model: model,
  };
}
