// Placeholder until its issue fills it: the real title and an honest empty state.
export default function ConfirmEmailPage() {
  return <section><h1>Confirm your e-mail</h1></section>;
}
