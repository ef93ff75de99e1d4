import { CopyButton } from '../../../components/ui/copy-button';

/** A code sample with a copy button; `label` names it for screen readers and the copy button. */
export function CodeBlock({ code, label }: { code: string; label: string }) {
  return (
    <div className="docs-code">
      <div className="docs-code__bar"><CopyButton value={code} className="docs-code__copy" /></div>
      <pre tabIndex={0} aria-label={label}><code>{code}</code></pre>
    </div>
  );
}
