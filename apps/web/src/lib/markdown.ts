import { micromark } from 'micromark';

// The operators' Markdown (Terms of Service, Refund Policy) as HTML, with micromark (decision 025): CommonMark,
// safe by default. Raw HTML in the text is escaped, not passed through (allowDangerousHtml stays off), and link and
// image targets with a scheme other than http(s), mailto, irc(s) and xmpp are dropped (javascript:, data:, …);
// relative links such as (refund-policy) are kept.

/** Markdown → HTML that is safe to insert: no tag, attribute or URL scheme the text did not get from Markdown. */
export function renderMarkdown(source: string): string {
  return micromark(source);
}
