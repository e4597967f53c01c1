import {
  SUPPORT_CATEGORIES,
  SUPPORT_ROBOT_MODEL_MAX,
  type SupportCategory,
  type SupportRequestFields,
} from '@portal/contract';
import { defined, oneOf, searchParser, text } from '@/lib/search-params';

export type SupportSearch = {
  topic?: SupportCategory;
  model?: string;
  /** a request to open in "Your requests" (the staff reply mail links here with it) */
  ticket?: string;
};

const TICKET_ID = /^SR-[A-Z2-9]{4}-[A-Z2-9]{4}$/;

/** A ticket id as the mails write it (any case), upper-cased; else undefined. */
function ticketOf(value: unknown): string | undefined {
  const ticket = typeof value === 'string' ? value.trim().toUpperCase() : undefined;
  return ticket && TICKET_ID.test(ticket) ? ticket : undefined;
}

/**
 * "Get Help" and "Get in touch" link here with ?topic=robot_not_listed&model=..., a staff reply's
 * mail with ?ticket=SR-...; anything invalid is dropped.
 */
export const supportSearchSchema = searchParser(
  (raw): SupportSearch =>
    defined({
      topic: oneOf(SUPPORT_CATEGORIES, raw.topic),
      model: text(raw.model, { min: 1, max: SUPPORT_ROBOT_MODEL_MAX, trim: true }),
      ticket: ticketOf(raw.ticket),
    }),
);

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
