import { useEffect, useState } from 'react';
import { toast } from '../../lib/toast';
import { uiText } from './ui-text';
import './ui.css';

/**
 * Copies `value` to the clipboard. Spec §8: the toast says 'Copied!' and closes after 10 ms, so the button itself
 * also shows "Copied" for two seconds (and announces it) — the toast alone is gone before anyone reads it.
 */
export function CopyButton({ value, label, className }: { value: string; label?: string; className?: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      // Clipboard API refused (insecure context, permissions): fall back to a hidden textarea.
      const area = document.createElement('textarea');
      area.value = value;
      area.setAttribute('readonly', '');
      area.style.position = 'fixed';
      area.style.opacity = '0';
      document.body.appendChild(area);
      area.select();
      document.execCommand('copy');
      area.remove();
    }
    setCopied(true);
    toast.copied(uiText('copied', 'Copied!'));
  }

  const text = copied ? uiText('copiedShort', 'Copied') : label ?? uiText('copy', 'Copy');
  return (
    <button type="button" className={`btn btn--secondary btn--sm copy-button ${className ?? ''}`} onClick={() => void copy()}>
      <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true">
        {copied
          ? <path d="M5 12.5l4.5 4.5L19 7.5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
          : <><rect x="9" y="9" width="11" height="11" rx="2" fill="none" stroke="currentColor" strokeWidth="2" /><path d="M5 15V6a2 2 0 0 1 2-2h9" fill="none" stroke="currentColor" strokeWidth="2" /></>}
      </svg>
      <span aria-live="polite">{text}</span>
    </button>
  );
}
