import { useMemo } from 'react';
import { renderMarkdown } from '../../lib/markdown';
import './markdown-view.css';

/** Markdown shown as formatted text (lib/markdown.ts: raw HTML escaped, unsafe links dropped). */
export function MarkdownView({ source, className }: { source: string; className?: string }) {
  const html = useMemo(() => renderMarkdown(source), [source]);
  // The HTML comes from markdown-it with raw HTML off: every tag is one Markdown made, never one the text carried.
  return <div className={['markdown', className].filter(Boolean).join(' ')} dangerouslySetInnerHTML={{ __html: html }} />;
}
