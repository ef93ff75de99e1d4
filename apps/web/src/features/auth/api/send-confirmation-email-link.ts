import type { Language } from '@cellport/shared/constants';
import { apiPost } from '../../../lib/api';

/** Sends the confirmation e-mail again, in the reader's language. */
export const sendConfirmationEmailLink = (body: { login: string; language: Language }) =>
  apiPost<{ success?: boolean }>('/send-confirmation-email-link', body);
