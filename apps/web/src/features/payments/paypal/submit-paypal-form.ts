/**
 * Spec §7: the browser posts the PayPal Payments Standard form (cmd _xclick, business, amount, custom…) to PayPal.
 * A real <form method="post"> built from the server's fields and submitted: the customer leaves for PayPal.
 */
export function submitPaypalForm(form: { action: string; fields: Record<string, string> }): void {
  const element = document.createElement('form');
  element.method = 'post';
  element.action = form.action;
  element.hidden = true;
  for (const [name, value] of Object.entries(form.fields)) {
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    element.appendChild(input);
  }
  document.body.appendChild(element);
  element.submit();
}
