/**
 * Submits a real HTML form (spec §4: the sign-in is a native POST to /signin), so the server answers with its
 * session cookie and a redirect the browser follows like any page load.
 */
export function nativePost(action: string, fields: Record<string, string>): void {
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
