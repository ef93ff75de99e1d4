import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown';

describe('renderMarkdown', () => {
  it('renders headings, lists, emphasis and links', () => {
    const html = renderMarkdown('## Refunds\n\n- **Full** refund within [24 hours](refund-policy)\n- none after');
    expect(html).toContain('<h2>Refunds</h2>');
    expect(html).toContain('<li><strong>Full</strong> refund within <a href="refund-policy">24 hours</a></li>');
    expect(renderMarkdown('[site](https://example.com)')).toContain('<a href="https://example.com">site</a>');
  });

  it('escapes raw HTML instead of passing it through', () => {
    const html = renderMarkdown('Hello <script>alert(1)</script> <img src=x onerror="alert(2)">\n\n<iframe src="https://evil.test"></iframe>');
    expect(html).not.toMatch(/<script|<img|<iframe/);
    expect(html).toContain('&lt;script&gt;');
  });

  it('drops dangerous link and image targets', () => {
    expect(renderMarkdown('[x](javascript:alert(1))')).toContain('href=""');
    expect(renderMarkdown('[x](data:text/html;base64,PHNjcmlwdD4=)')).toContain('href=""');
    expect(renderMarkdown('![x](javascript:alert(1))')).toContain('src=""');
    expect(renderMarkdown('[x](JaVaScRiPt:alert(1))')).not.toMatch(/javascript/i);
  });
});
