/**
 * Submits a real HTML form (spec §4: the sign-in is a native POST to /signin), so the server answers with its
 * session cookie and a redirect the browser follows like any page load.
 */
export function nativePost(action: string, fields: Record<string, string>): void {
  keepOriginOnSameOriginPosts();
  const form = document.createElement('form');
  form.method = 'post';
  form.action = action;
  form.hidden = true;
  for (const [name, value] of Object.entries(fields)) {
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    form.appendChild(input);
  }
  document.body.appendChild(form);
  form.submit();
}

/**
 * Under the server's `Referrer-Policy: no-referrer` a browser sends `Origin: null` with a form POST, and the
 * server's CSRF check rightly refuses that. A `same-origin` policy for this document keeps the real Origin on
 * same-origin requests and still sends nothing to other sites.
 */
function keepOriginOnSameOriginPosts(): void {
  if (document.querySelector('meta[name="referrer"]')) return;
  const meta = document.createElement('meta');
  meta.name = 'referrer';
  meta.content = 'same-origin';
  document.head.appendChild(meta);
}
